package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.attempt.AttemptLedger;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Instant;
import java.util.Optional;

/**
 * What an attempt's status means for a job that may restart: the status of the current attempt,
 * as {@link SlurmStatusMapper} maps it, with the job's restart count and attempts; and, once that
 * attempt has ended, whether the job fails or waits out a backoff for its next one (decided by
 * {@link AttemptLedger}, the same on every backend, from the mapper's {@link Ending}). Pure: the poller
 * asks, this answers.
 */
public final class SlurmRestarts {

    private SlurmRestarts() {
    }

    /** A running or pending attempt as the job shows it: a restarted job stays {@code Running}, reason {@code Restarting}, until it runs again. */
    static JobStatus during(SlurmJob job, JobStatus mapped) {
        if (job.unplaced() == null) {
            return mapped;
        }
        JobStatus before = job.status();
        // The attempt opened at its submission; it started when Slurm started it.
        AttemptLedger ledger = AttemptLedger.of(before).startedAt(mapped.startedAt());
        Instant started = before.startedAt() != null ? before.startedAt() : mapped.startedAt();
        JobStatus shown = mapped.withTimes(started, null);
        if (job.attempt() > 0 && mapped.phase() == JobPhase.PENDING) {
            return ledger.restartingShown(shown, "restart %d of %d: %s".formatted(job.attempt(),
                    job.plan().spec().lifecycle().maxRestartsOrDefault(), mapped.message()));
        }
        return ledger.on(shown);
    }

    /**
     * The job once its current attempt has ended as {@code ended} (a final status, as the mapper saw it)
     * for the reason {@code ending} gives: that status, with the attempt closed, or, where the attempt
     * failed in a way {@code restart_on} retries and restarts are left, the job {@code Running},
     * {@code Restarting}, due again after the backoff.
     */
    public static SlurmJob ended(SlurmJob job, JobStatus ended, Ending ending, RestartBackoff backoff, Instant now) {
        if (job.unplaced() == null) {
            return job.with(ended, null);
        }
        AttemptLedger ledger = closed(job, ended, now);
        JobStatus closed = ledger.on(ended.withTimes(firstStart(job, ended), ended.finishedAt()));
        Optional<RestartDecision> decision = ledger.after(job.plan().spec(), ending, backoff);
        if (decision.isEmpty()) {
            return job.with(closed, null);
        }
        if (decision.get() instanceof RestartDecision.Restart restart) {
            return job.with(ledger.restarting(restart).restartingShown(closed, restart.message()),
                    now.plus(restart.backoff()));
        }
        return job.with(closed.with(JobPhase.FAILED, ended.reason(), ((RestartDecision.Fail) decision.get()).message()),
                null);
    }

    /** The job stopped by the service (a cancel): ended as {@code stopped} says, never restarted, its backoff if any over. */
    static SlurmJob stopped(SlurmJob job, JobStatus stopped, Instant now) {
        return job.with(job.unplaced() == null ? stopped
                : closed(job, stopped, now).on(stopped.withTimes(firstStart(job, stopped), stopped.finishedAt())), null);
    }

    /** The job's attempts with the current one closed, if one is open. */
    private static AttemptLedger closed(SlurmJob job, JobStatus ended, Instant now) {
        Instant at = ended.finishedAt() != null ? ended.finishedAt() : now;
        return AttemptLedger.of(job.status()).end(at, ended.reason(), ended.message());
    }

    /** The job's first start: its first attempt's, where it has restarted. */
    private static Instant firstStart(SlurmJob job, JobStatus ended) {
        return job.status().startedAt() != null ? job.status().startedAt() : ended.startedAt();
    }
}
