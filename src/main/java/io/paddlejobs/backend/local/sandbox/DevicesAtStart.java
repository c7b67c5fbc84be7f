package io.paddlejobs.backend.local.sandbox;

import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * On a machine with GPUs, a start gives each replica its devices ({@link GpuAssignment}): it sets
 * {@code CUDA_VISIBLE_DEVICES} on every replica, and the other device variables on those with GPUs,
 * whatever the request's {@code env} said. A dry run cannot know the devices yet; rather than show the
 * request's values, which never reach the replica, it shows each one a start replaces as assigned then.
 */
public final class DevicesAtStart {

    static final String ASSIGNED_AT_START = "(assigned at start)";

    private static final List<String> ON_EVERY_REPLICA = List.of(GpuAssignment.CUDA_VISIBLE_DEVICES);
    private static final List<String> ON_GPU_REPLICAS = List.of(GpuAssignment.CUDA_VISIBLE_DEVICES,
            GpuAssignment.NVIDIA_VISIBLE_DEVICES, GpuAssignment.CUDA_DEVICE_ORDER, GpuAssignment.FLAGS_SELECTED_GPUS);

    private DevicesAtStart() {
    }

    /** The plan with each of the request's device variables that a start replaces shown as assigned at start. */
    public static JobPlan shown(JobPlan plan) {
        return plan.withReplicas(plan.replicas().stream().map(replica -> shown(plan, replica)).toList());
    }

    /** A warning when the request's {@code env} sets what a start replaces. */
    public static List<String> warnings(JobPlan plan) {
        Map<String, String> env = plan.spec().code().env();
        List<String> named = replaced(gpusOf(plan, Role.TRAINER) > 0).stream().filter(env::containsKey).toList();
        return named.isEmpty() ? List.of() : List.of("env's " + String.join(", ", named)
                + (named.size() == 1 ? " is" : " are") + " replaced at start by the GPUs each replica is given");
    }

    private static Replica shown(JobPlan plan, Replica replica) {
        Map<String, String> env = new LinkedHashMap<>(replica.env());
        for (String name : replaced(gpusOf(plan, replica.role()) > 0)) {
            env.computeIfPresent(name, (n, requested) -> ASSIGNED_AT_START);
        }
        return new Replica(replica.role(), replica.index(), replica.host(), env);
    }

    private static List<String> replaced(boolean withGpus) {
        return withGpus ? ON_GPU_REPLICAS : ON_EVERY_REPLICA;
    }

    private static int gpusOf(JobPlan plan, Role role) {
        return role == Role.TRAINER ? plan.role(Role.TRAINER).perReplica().gpu() : 0;
    }
}
