package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.backend.slurm.SlurmProperties;
import java.util.List;

/**
 * The few things the backend asks of Slurm. Each call is one round trip; a failure to reach
 * Slurm is a {@link SlurmException}.
 */
public interface SlurmClient {

    /** The client {@code paddlejobs.slurm.client} names. */
    static SlurmClient of(SlurmProperties properties) {
        return switch (properties.client()) {
            case CLI -> new SlurmCli(properties.slurmConf(), properties.binDir());
            case REST -> SlurmRest.of(properties);
        };
    }

    /** Queues a batch job. @return its Slurm job id (the first component's, for a heterogeneous job) */
    long submit(BatchJob job);

    /** Every job Slurm still remembers, one entry per component (finished ones for {@code MinJobAge}). */
    List<SlurmJobInfo> jobs();

    /** Cancels a job with all its components; cancelling a finished or unknown job is not an error. */
    void cancel(long jobId);

    /**
     * Sends SIGTERM to every step of a running job (not its batch shell), which goes on until its
     * replicas have exited: they may write a last checkpoint first. A job that has not started is
     * cancelled at once, or is a {@link SlurmException} (the caller then cancels it), never a wait; so is
     * one that has ended or that Slurm does not know.
     */
    void terminate(long jobId);
}
