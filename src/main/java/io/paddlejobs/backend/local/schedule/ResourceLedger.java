package io.paddlejobs.backend.local.schedule;

import io.paddlejobs.backend.local.LocalJob;
import io.paddlejobs.backend.local.LocalProperties;
import io.paddlejobs.job.Capacity;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Violation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who holds what of this machine. GPUs are never shared: each trainer gets its own, disjoint from
 * every other running job's. Memory is counted, the plan's totals against the machine's. CPUs are
 * counted against {@code cpuOversubscription} per CPU, and never keep a job waiting when nothing
 * else runs. Not thread-safe: the {@link LocalScheduler}'s lock guards it.
 */
public final class ResourceLedger {

    private record Holding(JobKey key, GpuAssignment gpus, Memory memory, Cpu cpu) {
    }

    private final MachineCapacity machine;
    private final int cpuOversubscription;
    private final List<String> notes;
    /** By job object, as slots are: a late release of a deleted job must not free a new one's GPUs. */
    private final Map<LocalJob, Holding> held = new LinkedHashMap<>();

    static final String NOT_ENFORCED = "memory and CPU are counted, not enforced: a replica may use more than "
            + "its plan gives it";

    /** The ledger for this machine and these settings, with the notes {@code GET /capacity} shows. */
    public static ResourceLedger of(MachineCapacity machine, LocalProperties properties) {
        List<String> notes = new ArrayList<>();
        notes.add(NOT_ENFORCED);
        notes.add(("CPUs are counted %d per CPU of the machine (paddlejobs.local.cpu-oversubscription), and a job "
                + "alone always gets its CPUs; GPUs are never shared").formatted(properties.cpuOversubscription()));
        return new ResourceLedger(machine, properties.cpuOversubscription(), notes);
    }

    ResourceLedger(MachineCapacity machine, int cpuOversubscription, List<String> notes) {
        this.machine = machine;
        this.cpuOversubscription = cpuOversubscription;
        this.notes = List.copyOf(notes);
    }

    /** What makes this job unable to ever run here, in words that say what the machine has; empty if nothing. */
    public List<Violation> neverFits(JobPlan plan) {
        List<Violation> violations = new ArrayList<>();
        int gpus = plan.totals().gpu();
        if (gpus > machine.gpus().size()) {
            String field = plan.spec().compute().numGpus() != null || plan.spec().compute().trainerGpu() == null ? "num_gpus" : "trainer_gpu";
            violations.add(Violation.of(field, gpus, "this machine has %s; the job asks for %d"
                    .formatted(gpuCount(machine.gpus().size()), gpus)));
        }
        Memory memory = plan.totals().memory();
        if (memory.compareTo(machine.memory()) > 0) {
            String field = plan.spec().compute().memory() != null || plan.spec().compute().trainerMem() == null ? "memory" : "trainer_mem";
            violations.add(Violation.of(field, memory.toString(), ("this machine has %s of memory for jobs; the job "
                    + "asks for %s (its trainers' and pservers' memory together)%s").formatted(readable(machine.memory()),
                    memory, perGpuFloor(plan))));
        }
        return violations;
    }

    /** Where the per-GPU memory floor raised the trainers' memory, that is where most of it comes from: say so. */
    private static String perGpuFloor(JobPlan plan) {
        return plan.derivations().stream()
                .filter(d -> d.field().equals("trainer_mem") && d.rule().startsWith("raised to the per-GPU floor"))
                .findFirst()
                .map(d -> "; each GPU trainer gets %s, %s".formatted(d.value(), d.rule()))
                .orElse("");
    }

    /**
     * Gives the job what its plan asks for, if that is free now: the GPUs it held before where they are
     * all free again ({@code earlier}), else the lowest free indexes. Empty when it must wait.
     */
    Optional<GpuAssignment> take(LocalJob job, JobPlan plan, GpuAssignment earlier) {
        if (!fitsNow(plan)) {
            return Optional.empty();
        }
        GpuAssignment gpus = assign(plan, earlier);
        held.put(job, new Holding(job.key(), gpus, plan.totals().memory(), plan.totals().cpu()));
        return Optional.of(gpus);
    }

    /** A job read back from its record that still holds what it held (its processes may still run). */
    void hold(LocalJob job, JobPlan plan, GpuAssignment gpus) {
        held.put(job, new Holding(job.key(), gpus, plan.totals().memory(), plan.totals().cpu()));
    }

    /** Returns whether the job held anything. */
    boolean release(LocalJob job) {
        return held.remove(job) != null;
    }

    /** What a job that fits this machine waits for now, and who holds it ({@code waiting for 2 GPUs: ...}). */
    String shortage(JobPlan plan) {
        String namespace = plan.namespace();
        List<String> parts = new ArrayList<>();
        int gpus = plan.totals().gpu();
        int freeGpus = machine.gpus().size() - heldGpus().size();
        if (gpus > freeGpus) {
            parts.add("%s: %d of %d free, held by %s".formatted(gpuCount(gpus), freeGpus, machine.gpus().size(),
                    holders(namespace, h -> !h.gpus().all().isEmpty())));
        }
        Memory freeMemory = freeMemory();
        if (plan.totals().memory().compareTo(freeMemory) > 0) {
            parts.add("%s of memory: %s of %s free, held by %s".formatted(plan.totals().memory(), readable(freeMemory),
                    readable(machine.memory()), holders(namespace, h -> h.memory().bytes() > 0)));
        }
        if (!cpusFit(plan)) {
            parts.add("%s CPUs: %s of %s free (%d counted per CPU, paddlejobs.local.cpu-oversubscription), held by %s"
                    .formatted(plan.totals().cpu(), freeCpus(), countedCpus(), cpuOversubscription,
                            holders(namespace, h -> h.cpu().millis() > 0)));
        }
        return parts.isEmpty() ? "waiting for resources" : "waiting for " + String.join("; and for ", parts);
    }

    public Capacity capacity() {
        Map<Integer, Map.Entry<JobKey, String>> holderOf = new LinkedHashMap<>();
        held.values().forEach(h -> h.gpus().byReplica().forEach((replica, devices) ->
                devices.forEach(d -> holderOf.put(d.index(), Map.entry(h.key(), replica)))));
        List<Capacity.Gpu> gpus = machine.gpus().stream().map(d -> {
            Map.Entry<JobKey, String> holder = holderOf.get(d.index());
            return new Capacity.Gpu(d.index(), d.uuid(), d.name(), d.memoryMib(), holder != null,
                    holder == null ? null : holder.getKey(), holder == null ? null : holder.getValue());
        }).toList();
        Memory usedMemory = held.values().stream().map(Holding::memory).reduce(new Memory(0), Memory::plus);
        Cpu usedCpu = usedCpu();
        int usedGpus = heldGpus().size();
        return new Capacity(
                new Capacity.Amounts(machine.gpus().size(), machine.memory(), countedCpus()),
                new Capacity.Amounts(usedGpus, usedMemory, usedCpu),
                new Capacity.Amounts(machine.gpus().size() - usedGpus, freeMemory(), freeCpus()),
                gpus, !notes.contains(NOT_ENFORCED), notes);
    }

    private boolean fitsNow(JobPlan plan) {
        return plan.totals().gpu() <= machine.gpus().size() - heldGpus().size()
                && plan.totals().memory().compareTo(freeMemory()) <= 0
                && cpusFit(plan);
    }

    /** A job alone on the machine always gets its CPUs: more CPUs than the machine has make it slow, not wrong. */
    private boolean cpusFit(JobPlan plan) {
        return held.isEmpty() || usedCpu().millis() + plan.totals().cpu().millis() <= countedCpus().millis();
    }

    private GpuAssignment assign(JobPlan plan, GpuAssignment earlier) {
        if (machine.gpus().isEmpty()) {
            return GpuAssignment.NONE;
        }
        Set<Integer> taken = heldGpus();
        boolean earlierFree = !earlier.byReplica().isEmpty()
                && earlier.all().stream().noneMatch(d -> taken.contains(d.index()))
                && plan.replicas().stream().allMatch(r -> earlier.of(r.id()).size() == plan.role(r.role()).perReplica().gpu()
                        || r.role() == Role.PSERVER && earlier.of(r.id()).isEmpty());
        if (earlierFree) {
            return earlier;
        }
        List<GpuDevice> free = machine.gpus().stream().filter(d -> !taken.contains(d.index()))
                .sorted(Comparator.comparingInt(GpuDevice::index)).collect(Collectors.toCollection(ArrayList::new));
        Map<String, List<GpuDevice>> byReplica = new LinkedHashMap<>();
        for (Replica replica : plan.replicas()) {
            int count = replica.role() == Role.TRAINER ? plan.role(Role.TRAINER).perReplica().gpu() : 0;
            List<GpuDevice> mine = new ArrayList<>(free.subList(0, count));
            free.subList(0, count).clear();
            byReplica.put(replica.id(), mine);
        }
        return new GpuAssignment(byReplica);
    }

    private Set<Integer> heldGpus() {
        Set<Integer> indexes = new HashSet<>();
        held.values().forEach(h -> h.gpus().all().forEach(d -> indexes.add(d.index())));
        return indexes;
    }

    private Memory freeMemory() {
        long used = held.values().stream().mapToLong(h -> h.memory().bytes()).sum();
        return new Memory(Math.max(0, machine.memory().bytes() - used));
    }

    private Cpu usedCpu() {
        return new Cpu(held.values().stream().mapToLong(h -> h.cpu().millis()).sum());
    }

    private Cpu countedCpus() {
        return machine.cpus().times(cpuOversubscription);
    }

    private Cpu freeCpus() {
        return new Cpu(Math.max(0, countedCpus().millis() - usedCpu().millis()));
    }

    /** The holding jobs' names; jobs of other namespaces are counted, not named. */
    private String holders(String namespace, java.util.function.Predicate<Holding> holds) {
        List<String> names = new ArrayList<>();
        long elsewhere = 0;
        for (Map.Entry<LocalJob, Holding> entry : held.entrySet()) {
            Holding h = entry.getValue();
            if (holds.test(h)) {
                if (h.key().namespace().equals(namespace)) {
                    // An ended job holds its share until its last process is gone: say why it still does.
                    names.add(entry.getKey().stopping() ? h.key().name() + " (ended, its processes are stopping)"
                            : h.key().name());
                } else {
                    elsewhere++;
                }
            }
        }
        if (elsewhere > 0) {
            names.add(elsewhere + (elsewhere == 1 ? " job" : " jobs") + " of other namespaces");
        }
        return names.isEmpty() ? "nobody" : String.join(", ", names);
    }

    private static String gpuCount(int n) {
        return n == 0 ? "no GPUs" : n == 1 ? "1 GPU" : n + " GPUs";
    }

    /** Whole mebibytes at least, so that a machine's odd byte count reads as 23Gi or 24105Mi. */
    private static String readable(Memory memory) {
        long mi = memory.bytes() / (1024 * 1024);
        return Memory.ofMebibytes(mi).toString();
    }
}
