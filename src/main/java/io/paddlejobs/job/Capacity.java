package io.paddlejobs.job;

import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import java.util.List;

/**
 * What a backend that schedules on its own machine may hand out, and who holds what (the local
 * backend; clusters have their own schedulers and report none).
 *
 * @param total    what the backend may hand out at all
 * @param inUse    what running jobs hold
 * @param free     what a job could get now ({@code cpus}: of the counted, oversubscribed CPUs)
 * @param gpus     each GPU, and the job that holds it
 * @param enforced whether memory and CPU are enforced (cgroups) or only counted
 * @param notes    what a user should know about these numbers, in words
 */
public record Capacity(Amounts total, Amounts inUse, Amounts free, List<Gpu> gpus, boolean enforced,
                       List<String> notes) {

    public Capacity {
        gpus = List.copyOf(gpus);
        notes = List.copyOf(notes);
    }

    /** An amount of each resource; {@code cpus} are the CPUs jobs are counted against. */
    public record Amounts(int gpus, Memory memory, Cpu cpus) {
    }

    /**
     * One GPU.
     *
     * @param uuid      as the driver reports it; {@code null} where the GPU was configured by index only
     * @param memoryMib its memory, {@code null} where not known
     * @param held      whether a job holds it
     * @param job       the job holding it; {@code null} when free, or when the caller may not see that job
     * @param replica   the replica of that job that holds it, likewise
     */
    public record Gpu(int index, String uuid, String name, Long memoryMib, boolean held, JobKey job, String replica) {

        /** The same GPU as a caller who may not see its job's namespace sees it: held, but not by whom. */
        public Gpu withoutHolder() {
            return new Gpu(index, uuid, name, memoryMib, held, null, null);
        }
    }
}
