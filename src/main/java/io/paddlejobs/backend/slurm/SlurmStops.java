package io.paddlejobs.backend.slurm;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancel and delete for the Slurm backend: the two ways a job is stopped, each of which must agree
 * with the {@link StatusPoller} on the job's in-memory state, tell the backend's listeners what
 * changed, and leave no task writing its files. A cancel is graceful: the replicas get SIGTERM
 * ({@code scancel --signal=TERM}) and, after {@code stop-grace-period}, the job is cancelled in Slurm
 * if it still runs (its KillWait then ends what ignored both); a delete cancels at once.
 */
final class SlurmStops implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SlurmStops.class);
    /** How long a delete waits for Slurm to stop a job's tasks before it removes their files. */
    private static final long DELETE_WAIT_MILLIS = 20_000;

    private final ConcurrentHashMap<JobKey, SlurmJob> jobs;
    private final SlurmClient slurm;
    private final SlurmRecords records;
    private final Clock clock;
    private final Consumer<JobKey> changed;
    private final Duration grace;
    private final ScheduledExecutorService afterGrace = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "slurm-stops");
        thread.setDaemon(true);
        return thread;
    });

    SlurmStops(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records, Clock clock,
               Consumer<JobKey> changed, Duration grace) {
        this.jobs = jobs;
        this.slurm = slurm;
        this.records = records;
        this.clock = clock;
        this.changed = changed;
        this.grace = grace;
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
        // Waiting out a backoff, nothing of the job is in Slurm: the next attempt is simply not submitted.
        if (current.restartAt() == null) {
            try {
                stopAttempt(current.slurmId());
            } catch (RuntimeException e) {
                update(key, j -> j.isFinished() ? j : j.withCancelRequested(false));
                throw e;
            }
        }
        Instant now = clock.instant();
        SlurmJob cancelled = update(key, j -> j.isFinished() ? j : SlurmRestarts.stopped(j,
                SlurmStatusMapper.cancelled(j.tracked(List.of(), records.files(key).marks(j.plan(), j.attempt())),
                        j.status().startedAt(), now), now));
        if (cancelled == null) {
            return Optional.empty();
        }
        records.saveIfCurrent(jobs, cancelled); // a delete meanwhile leaves no record behind
        changed.accept(key);
        return Optional.of(cancelled.toJob());
    }

    /**
     * SIGTERM to the replicas, so that they may write a last checkpoint, and the job cancelled once
     * the grace period is over. A job Slurm does not run (yet, or any more) takes no signal: it is
     * cancelled at once.
     */
    void stopAttempt(long slurmId) {
        try {
            slurm.terminate(slurmId);
        } catch (SlurmException notRunning) {
            slurm.cancel(slurmId);
            return;
        }
        afterGrace.schedule(() -> {
            try {
                slurm.cancel(slurmId);
            } catch (RuntimeException e) {
                log.warn("Slurm job {} could not be cancelled after its grace period: {}", slurmId, e.toString());
            }
        }, grace.toMillis(), TimeUnit.MILLISECONDS);
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
        try {
            records.files(key).delete();
        } catch (JobFilesUnusableException e) {
            // The job is gone; what a link stands in the way of is not reached through it.
            log.warn("Job {} was deleted, but not its files: {}", key, e.getBody().getDetail());
        }
        return true;
    }

    @Override
    public void close() {
        afterGrace.shutdownNow();
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
