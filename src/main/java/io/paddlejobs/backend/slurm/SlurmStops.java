package io.paddlejobs.backend.slurm;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancel and delete for the Slurm backend: the two ways a job is stopped, each of which must agree
 * with the {@link StatusPoller} on the job's in-memory state, tell the backend's listeners what
 * changed, and leave no task writing its files.
 */
final class SlurmStops {

    private static final Logger log = LoggerFactory.getLogger(SlurmStops.class);
    /** How long a delete waits for Slurm to stop a job's tasks before it removes their files. */
    private static final long DELETE_WAIT_MILLIS = 20_000;

    private final ConcurrentHashMap<JobKey, SlurmJob> jobs;
    private final SlurmClient slurm;
    private final SlurmRecords records;
    private final Clock clock;
    private final Consumer<JobKey> changed;

    SlurmStops(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records, Clock clock,
               Consumer<JobKey> changed) {
        this.jobs = jobs;
        this.slurm = slurm;
        this.records = records;
        this.clock = clock;
        this.changed = changed;
    }

    /** Cancels the job in Slurm and marks it {@code Cancelled}; a finished job stays as it is. */
    Optional<Job> cancel(JobKey key) {
        SlurmJob job = jobs.get(key);
        if (job == null || job.slurmId() == 0) {
            return Optional.empty();
        }
        if (job.isFinished()) {
            return Optional.of(job.toJob());
        }
        // Marked first, so that a poll seeing Slurm's CANCELLED knows it was asked for.
        SlurmJob current = update(key, j -> j.withCancelRequested(true));
        if (current == null || current.isFinished()) {
            return Optional.ofNullable(current).map(SlurmJob::toJob);
        }
        try {
            slurm.cancel(job.slurmId());
        } catch (RuntimeException e) {
            update(key, j -> j.isFinished() ? j : j.withCancelRequested(false));
            throw e;
        }
        Instant now = clock.instant();
        SlurmJob cancelled = update(key, j -> j.isFinished() ? j : j.with(j.plan(), j.placed(),
                SlurmStatusMapper.cancelled(j.tracked(List.of(), records.files(key).marks(j.plan())), j.status().startedAt(), now)));
        if (cancelled == null) {
            return Optional.empty();
        }
        records.save(cancelled);
        changed.accept(key);
        return Optional.of(cancelled.toJob());
    }

    /** Applies a change to the job atomically. @return the job after it, or null when there is none */
    private SlurmJob update(JobKey key, UnaryOperator<SlurmJob> change) {
        return jobs.computeIfPresent(key, (k, j) -> change.apply(j));
    }

    /** Stops what of the job still runs, then forgets it and removes its files. */
    boolean delete(JobKey key) {
        SlurmJob job = jobs.get(key);
        if (job == null || job.slurmId() == 0) {
            return false;
        }
        if (!job.isFinished() || job.cancelRequested()) {
            slurm.cancel(job.slurmId());
            awaitGone(job.slurmId()); // its files go next: nothing of the job may still write them
        }
        jobs.remove(key);
        changed.accept(key);
        records.files(key).delete();
        return true;
    }

    /** Waits, within a deadline, until Slurm runs nothing of the job, so its files can go. */
    private void awaitGone(long slurmId) {
        long deadline = System.currentTimeMillis() + DELETE_WAIT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            boolean active = slurm.jobs().stream()
                    .anyMatch(info -> info.submittedId() == slurmId && !info.isFinal());
            if (!active) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        log.warn("Slurm job {} was still running {} ms after it was cancelled; removing its files anyway",
                slurmId, DELETE_WAIT_MILLIS);
    }
}
