package io.paddlejobs.backend.slurm.client;

import java.time.Instant;

/**
 * One job (or one component of a heterogeneous job) as Slurm reports it.
 *
 * @param hetJobId  the heterogeneous job's id (its first component's), or 0 for a plain job
 * @param state     Slurm's base state: {@code PENDING}, {@code RUNNING}, {@code COMPLETED}, {@code TIMEOUT}, ...
 * @param reason    why it is pending or ended ({@code Resources}, {@code NonZeroExitCode}), {@code None} otherwise
 * @param exitCode  the batch script's exit code, with {@code signal} the signal that ended it (0 for none)
 * @param startTime when it started or is expected to start; {@code null} when unknown
 * @param endTime   when it ended or will be ended by its time limit; {@code null} when unknown
 */
public record SlurmJobInfo(long jobId, long hetJobId, int hetJobOffset, String name, String state, String reason,
                    int exitCode, int signal, String nodes, long timeLimitMinutes, Instant startTime,
                    Instant endTime) {

    /** The id the job was submitted under: for a component, its heterogeneous job's. */
    public long submittedId() {
        return hetJobId > 0 ? hetJobId : jobId;
    }

    /**
     * Whether it ran: it left the queue on nodes. One cancelled while it waited has a start time (the moment it was
     * cancelled) but no nodes ({@code (null)} in scontrol's words, empty in slurmrestd's).
     */
    public boolean ran() {
        return !state.equals("PENDING") && !(state.equals("CANCELLED") && (nodes.isBlank() || nodes.equals("(null)")));
    }

    public boolean isFinal() {
        return switch (state) {
            case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD",
                 "REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD" -> false;
            default -> true;
        };
    }
}
