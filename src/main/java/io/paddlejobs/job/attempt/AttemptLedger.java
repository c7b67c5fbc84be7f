package io.paddlejobs.job.attempt;

import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A job's attempts as every backend keeps them: how many restarts it had, and each run of its replicas,
 * the last one open while it runs. An immutable value: each step returns the next ledger, and the
 * backend keeps it where it keeps the job (in memory and its record, or in the cluster's annotations).
 *
 * @param restarts how many times the whole job was started again: the current attempt's number
 * @param attempts each run, oldest first; empty for a job with no restarts to spend
 */
public record AttemptLedger(int restarts, List<Attempt> attempts) {

    /** A job that has not run yet, or never restarts. */
    public static final AttemptLedger NONE = new AttemptLedger(0, List.of());

    public AttemptLedger {
        attempts = List.copyOf(attempts);
    }

    /** The ledger a status shows. */
    public static AttemptLedger of(JobStatus status) {
        return new AttemptLedger(status.restarts(), status.attempts());
    }

    /** The current attempt ({@link #restarts()}) begun at {@code at}. */
    public AttemptLedger begin(Instant at) {
        List<Attempt> all = new ArrayList<>(attempts);
        all.add(Attempt.begun(restarts, at));
        return new AttemptLedger(restarts, all);
    }

    /**
     * The open attempt began at {@code at}, later than it was opened: a scheduler that queues the job
     * (Slurm) opens it when it takes the job and starts it when it has room.
     */
    public AttemptLedger startedAt(Instant at) {
        Attempt open = open().orElse(null);
        if (open == null || at == null || open.startedAt() == null || !open.startedAt().isBefore(at)) {
            return this;
        }
        return replaceLast(Attempt.begun(open.number(), at));
    }

    /** The open attempt, if any, ended at {@code at} for this reason. */
    public AttemptLedger end(Instant at, String reason, String message) {
        return open().map(a -> replaceLast(a.ended(at, reason, message))).orElse(this);
    }

    /**
     * What the current attempt's ending leads to ({@link RestartDecision}: a restart after a backoff while
     * {@code max_restarts} and {@code restart_on} allow, else the job's failure); empty for an ending that
     * is no failure ({@link FailureCause}), which ends the job as it is.
     */
    public Optional<RestartDecision> after(JobRequest spec, Ending ending, RestartBackoff backoff) {
        return FailureCause.of(ending).map(cause -> RestartDecision.after(spec, restarts, backoff, ending.message(),
                cause, ending.exitCode()));
    }

    /** The ledger once {@code restart} is decided: its count is the next attempt's number. */
    public AttemptLedger restarting(RestartDecision.Restart restart) {
        return new AttemptLedger(restart.restart(), attempts);
    }

    /** {@code status} with this ledger's restarts and attempts. */
    public JobStatus on(JobStatus status) {
        return status.withAttempts(restarts, attempts);
    }

    /**
     * {@code status} as a job shows it between its attempts: still {@code Running}, reason
     * {@code Restarting}, saying {@code message}, with this ledger, neither finished nor queued.
     */
    public JobStatus restartingShown(JobStatus status, String message) {
        return on(status.with(JobPhase.RUNNING, RestartDecision.RESTARTING, message).withTimes(status.startedAt(), null)
                .withQueuePosition(null));
    }

    private Optional<Attempt> open() {
        return attempts.isEmpty() || attempts.get(attempts.size() - 1).finishedAt() != null ? Optional.empty()
                : Optional.of(attempts.get(attempts.size() - 1));
    }

    private AttemptLedger replaceLast(Attempt attempt) {
        List<Attempt> all = new ArrayList<>(attempts);
        all.set(all.size() - 1, attempt);
        return new AttemptLedger(restarts, all);
    }
}
