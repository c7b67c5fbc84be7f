package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.client.SlurmException;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.backend.slurm.script.JobFilesUnusableException;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancel and delete for the Slurm backend: the two ways a job is stopped, each of which must agree
 * with the {@link StatusPoller} on the job's in-memory state, tell the backend's listeners what
 * changed, and leave no task writing its files. A cancel is graceful for a job that runs: its
 * replicas get SIGTERM and, after {@code paddlejobs.stop-grace-period}, the job is cancelled in Slurm if it still
 * runs (its KillWait then ends what ignored both). A job that has not started is cancelled at once: it
 * never starts, and its place in Slurm's queue is free. A delete cancels at once and answers: the
 * job's record goes at once (a restart does not read it back), the rest of its files once Slurm runs
 * nothing of it, on the poller's thread ({@link #removeStopped}), so no request waits for Slurm.
 */
public final class SlurmStops implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SlurmStops.class);
    /** How long a deleted job's files wait for Slurm to stop its tasks before they are removed anyway. */
    static final Duration DELETE_WAIT = Duration.ofSeconds(20);

    /** A deleted job whose files wait for its Slurm job to stop; {@code done} completes once they are gone. */
    private record Removal(long slurmId, Instant deadline, CompletableFuture<Void> done) {
    }

    private final ConcurrentHashMap<JobKey, Removal> removing = new ConcurrentHashMap<>();

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

    public SlurmStops(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records, Clock clock,
               Consumer<JobKey> changed, Duration grace) {
        this.jobs = jobs;
        this.slurm = slurm;
        this.records = records;
        this.clock = clock;
        this.changed = changed;
        this.grace = grace;
    }

    /** Cancels the job in Slurm and marks it {@code Cancelled}; a finished job stays as it is. */
    public Optional<Job> cancel(JobKey key) {
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
        // Read before the change, which holds the map's lock for the key and so must do no I/O.
        ReplicaMarks marks = records.files(key).marks(current.plan(), current.attempt());
        SlurmJob cancelled = update(key, j -> j.isFinished() ? j : SlurmRestarts.stopped(j,
                SlurmStatusMapper.cancelled(j.tracked(List.of(), j.attempt() == current.attempt() ? marks
                        : ReplicaMarks.NONE), j.status().startedAt(), now), now));
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
     * cancelled at once ({@link SlurmClient#terminate}).
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

    /**
     * Cancels what of the job may still run, forgets it and removes its record at once; the rest of
     * its files go once Slurm runs nothing of it ({@link #removeStopped}): its tasks may still write them.
     */
    public boolean delete(JobKey key) {
        SlurmJob job = jobs.get(key);
        if (job == null || job.slurmId() == 0) {
            return false;
        }
        JobFiles files = records.files(key);
        if (!job.isFinished() || job.cancelRequested()) {
            slurm.cancel(job.slurmId());
            // Before the job leaves the map: a submit of its name that finds the name free finds this too.
            removing.put(key, new Removal(job.slurmId(), clock.instant().plus(DELETE_WAIT), new CompletableFuture<>()));
            records.forget(jobs, key);
            changed.accept(key);
            try {
                files.deleteRecord();
            } catch (JobFilesUnusableException e) {
                log.warn("Job {} was deleted, but not its record: {}", key, e.getBody().getDetail());
            }
            return true;
        }
        records.forget(jobs, key);
        changed.accept(key);
        try {
            files.delete();
        } catch (JobFilesUnusableException e) {
            // The job is gone; what a link stands in the way of is not reached through it.
            log.warn("Job {} was deleted, but not its files: {}", key, e.getBody().getDetail());
        }
        return true;
    }

    /** Whether deleted jobs' files wait for their Slurm jobs to stop: the poller then lists Slurm's jobs for them. */
    boolean removalsPending() {
        return !removing.isEmpty();
    }

    /**
     * On the poller's thread, with what Slurm lists now: removes the files of each deleted job of which
     * Slurm runs nothing any more (or that is past {@link #DELETE_WAIT}).
     */
    public void removeStopped(List<SlurmJobInfo> slurmJobs) {
        Instant now = clock.instant();
        removing.forEach((key, removal) -> {
            boolean runs = slurmJobs.stream().anyMatch(info -> info.submittedId() == removal.slurmId() && !info.isFinal());
            if (runs && now.isBefore(removal.deadline())) {
                return;
            }
            if (runs) {
                log.warn("Slurm job {} was still running {} s after it was cancelled; removing its files anyway",
                        removal.slurmId(), DELETE_WAIT.toSeconds());
            }
            try {
                records.files(key).delete();
            } catch (RuntimeException e) {
                log.warn("The files of deleted job {} could not be removed: {}", key, e.toString());
            } finally {
                removing.remove(key, removal);
                removal.done().complete(null);
            }
        });
    }

    /**
     * A submit of a name whose deleted job's files still wait for Slurm ({@link #removeStopped}) waits
     * for them to go, at most {@link #DELETE_WAIT}: the old job's tasks must not write into the new one's.
     */
    public void awaitRemoved(JobKey key) {
        Removal removal = removing.get(key);
        if (removal == null) {
            return;
        }
        try {
            removal.done().get(DELETE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the poller is behind: the new job's submit removes what is left (JobFiles#delete)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        afterGrace.shutdownNow();
    }
}
