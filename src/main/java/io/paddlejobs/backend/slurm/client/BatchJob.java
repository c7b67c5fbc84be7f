package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.backend.slurm.SlurmChoices;
import java.nio.file.Path;
import java.util.List;

/**
 * One Slurm batch job as the backend submits it, apart from how a client writes it down.
 *
 * @param components  one per role, in order; more than one makes it a heterogeneous job
 * @param timeLimitMinutes 0 for the partition's default
 * @param termSecondsBeforeLimit how long before the time limit the replicas get SIGTERM; 0 for no warning
 * @param choices     the partition, account and QOS it is submitted to
 * @param body        the batch script's body, without {@code #SBATCH} lines
 */
public record BatchJob(String name, Path workDir, Path output, List<Component> components, long timeLimitMinutes,
                long termSecondsBeforeLimit, SlurmChoices choices, String body) {

    public BatchJob {
        components = List.copyOf(components);
    }

    /** One component: {@code tasks} tasks, each with these CPUs, memory and GPUs. */
    public record Component(int tasks, int cpusPerTask, long memoryPerCpuMb, int gpusPerTask) {
    }
}
