package io.paddlejobs.planning;

import java.util.List;

/**
 * Raises a GPU trainer's derived CPU and memory to the operator's per-GPU floors, and says so in
 * the derivations; values the user gave per trainer are kept, with a warning when they are below.
 */
final class GpuFloorRule {

    private final PlanningPolicy.Gpu gpu;
    private final List<Derivation> derivations;
    private final List<String> warnings;

    GpuFloorRule(PlanningPolicy.Gpu gpu, List<Derivation> derivations, List<String> warnings) {
        this.gpu = gpu;
        this.derivations = derivations;
        this.warnings = warnings;
    }

    /**
     * @param given      whether the user gave {@code trainer_cpu}
     * @param totalGiven whether the user gave {@code num_cpus}, which a raised share then exceeds
     */
    Cpu cpu(int gpus, Cpu derived, boolean given, boolean totalGiven) {
        if (gpus == 0 || gpu.cpuPerGpu() == null) {
            return derived;
        }
        Cpu floor = gpu.cpuPerGpu().times(gpus);
        if (derived.millis() >= floor.millis()) {
            return derived;
        }
        String rule = gpu.cpuPerGpu() + " CPUs per GPU x " + gpus + " GPUs (paddlejobs.defaults.trainer-cpu-per-gpu)";
        if (given) {
            warnings.add("trainer_cpu (%s) is below the per-GPU floor of %s: the GPUs will wait for the CPU"
                    .formatted(derived, rule));
            return derived;
        }
        if (totalGiven) {
            warnings.add("each trainer gets %s CPUs, more than num_cpus / trainers (%s): the per-GPU floor of %s"
                    .formatted(floor, derived, rule));
        }
        replace("trainer_cpu", floor, "raised to the per-GPU floor of " + rule + " from " + derived);
        return floor;
    }

    /**
     * @param given      whether the user gave {@code trainer_mem}
     * @param totalGiven whether the user gave {@code memory}, which a raised share then exceeds
     */
    Memory memory(int gpus, Memory derived, boolean given, boolean totalGiven) {
        if (gpus == 0 || gpu.memoryPerGpu() == null) {
            return derived;
        }
        Memory floor = gpu.memoryPerGpu().times(gpus);
        if (derived.compareTo(floor) >= 0) {
            return derived;
        }
        String rule = gpu.memoryPerGpu() + " per GPU x " + gpus + " GPUs (paddlejobs.defaults.trainer-mem-per-gpu)";
        if (given) {
            warnings.add("trainer_mem (%s) is below the per-GPU floor of %s: GPU Paddle is likely to be killed for"
                    .formatted(derived, rule) + " running out of memory");
            return derived;
        }
        if (totalGiven) {
            warnings.add("each trainer gets %s of memory, more than memory / trainers (%s): the per-GPU floor of %s"
                    .formatted(floor, derived, rule));
        }
        replace("trainer_mem", floor, "raised to the per-GPU floor of " + rule + " from " + derived);
        return floor;
    }

    private void replace(String field, Object value, String rule) {
        derivations.removeIf(d -> d.field().equals(field));
        derivations.add(new Derivation(field, String.valueOf(value), rule));
    }
}
