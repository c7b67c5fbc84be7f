package io.paddlejobs.backend.local.schedule;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Which GPUs each replica of a job holds: part of the job's record, so that the job keeps them
 * across a restart of the service and a restart of the job can ask for the same devices again.
 * On a machine with GPUs every replica has an entry (an empty one for pservers and CPU trainers, who
 * are shown none); on a machine without, the assignment is empty and replicas' environments are untouched.
 */
public record GpuAssignment(Map<String, List<GpuDevice>> byReplica) {

    public static final GpuAssignment NONE = new GpuAssignment(Map.of());

    /** The variables that give a replica its devices; Paddle's launcher sets the same per rank. */
    public static final String CUDA_VISIBLE_DEVICES = "CUDA_VISIBLE_DEVICES";
    public static final String NVIDIA_VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
    public static final String CUDA_DEVICE_ORDER = "CUDA_DEVICE_ORDER";
    public static final String FLAGS_SELECTED_GPUS = "FLAGS_selected_gpus";

    public GpuAssignment {
        byReplica = byReplica == null ? Map.of() : Map.copyOf(byReplica.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.copyOf(e.getValue()))));
    }

    public List<GpuDevice> of(String replicaId) {
        return byReplica.getOrDefault(replicaId, List.of());
    }

    /** Every device held, by any replica. */
    List<GpuDevice> all() {
        return byReplica.values().stream().flatMap(List::stream).toList();
    }

    /** The ids the replica's status and {@code CUDA_VISIBLE_DEVICES} show. */
    public List<String> visibleIds(String replicaId) {
        return of(replicaId).stream().map(GpuDevice::visibleId).toList();
    }

    /** The plan with each replica's devices in its environment; replicas without an entry are left as planned. */
    public JobPlan applyTo(JobPlan plan) {
        if (byReplica.isEmpty()) {
            return plan;
        }
        return plan.withReplicas(plan.replicas().stream().map(this::withDevices).toList());
    }

    private Replica withDevices(Replica replica) {
        if (!byReplica.containsKey(replica.id())) {
            return replica;
        }
        Map<String, String> env = new LinkedHashMap<>(replica.env());
        List<String> ids = visibleIds(replica.id());
        // An empty CUDA_VISIBLE_DEVICES hides every GPU: a pserver or CPU trainer does not take one by chance.
        env.put(CUDA_VISIBLE_DEVICES, String.join(",", ids));
        if (!ids.isEmpty()) {
            env.put(NVIDIA_VISIBLE_DEVICES, String.join(",", ids));
            // Where devices are named by index, CUDA must number them as nvidia-smi does.
            env.put(CUDA_DEVICE_ORDER, "PCI_BUS_ID");
            // As paddle.distributed.launch sets it: relative to the visible devices, so 0..n-1.
            env.put(FLAGS_SELECTED_GPUS, IntStream.range(0, ids.size()).mapToObj(Integer::toString)
                    .collect(Collectors.joining(",")));
        }
        return new Replica(replica.role(), replica.index(), replica.host(), env);
    }
}
