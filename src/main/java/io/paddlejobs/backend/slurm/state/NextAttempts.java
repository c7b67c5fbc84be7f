package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.slurm.SlurmProperties;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.BatchScripts;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.backend.slurm.script.JobFilesUnusableException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.AttemptLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Submits a job's next attempt, a new Slurm batch job, once its backoff has passed. A new job rather
 * than {@code scontrol requeue}: a requeued job keeps its id, so a late mark or status of the failed
 * attempt could not be told from the new one's, and it needs requeueing allowed (the service submits
 * with {@code --no-requeue}, so that Slurm never runs a half-failed job again on its own).
 * The record is written once Slurm has the attempt; a service killed in between finds that Slurm job
 * at its next start by the job's name ({@link #adopt}), so the attempt is neither lost nor submitted twice.
 */
public final class NextAttempts {

    private final ConcurrentHashMap<JobKey, SlurmJob> jobs;
    private final SlurmClient slurm;
    private final SlurmRecords records;
    private final SlurmProperties properties;
    private final Consumer<JobKey> changed;

    public NextAttempts(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records,
                 SlurmProperties properties, Consumer<JobKey> changed) {
        this.jobs = jobs;
        this.slurm = slurm;
        this.records = records;
        this.properties = properties;
        this.changed = changed;
    }

    /** Submits the job's next attempt if its backoff has passed; a job cancelled or deleted meanwhile gets none. */
    public void submitIfDue(SlurmJob job, Instant now) {
        if (job.restartAt() == null || now.isBefore(job.restartAt())) {
            return;
        }
        JobFiles files = records.files(job.key());
        try {
            files.prepareAttempt(job.attempt());
        } catch (JobFilesUnusableException e) {
            fail(job, now, "restart %d was not submitted: %s".formatted(job.attempt(), e.getBody().getDetail()));
            return;
        }
        Duration ranBefore = job.status().startedAt() == null ? Duration.ZERO
                : Duration.between(job.status().startedAt(), now);
        long id = slurm.submit(BatchScripts.of(job.unplaced(), files, properties, job.attempt(), ranBefore));
        SlurmJob next = job.nextAttempt(id, now, submitted(job, id, ranBefore));
        if (!jobs.replace(job.key(), job, next)) {
            slurm.cancel(id); // cancelled or deleted while Slurm took it
            return;
        }
        records.saveIfCurrent(jobs, next); // a cancel meanwhile writes its own; a delete, none
        changed.accept(job.key());
    }

    /** The job cannot go on: it ends failed, unless it was cancelled or deleted meanwhile. */
    private void fail(SlurmJob job, Instant now, String why) {
        JobStatus s = job.status();
        SlurmJob failed = job.with(s.endedAs(JobPhase.FAILED, "StartFailed", why, now), null);
        if (jobs.replace(job.key(), job, failed)) {
            records.saveIfCurrent(jobs, failed);
            changed.accept(job.key());
        }
    }

    /**
     * What is left of {@code max_run_time} for the attempt, said in its status because Slurm counts it from the
     * job's first start: the backoffs ate into it, and the attempt's time limit is what is left (at least a minute).
     */
    private static String runTimeLeft(SlurmJob job, Duration ranBefore) {
        Duration maxRunTime = job.plan().spec().lifecycle().maxRunTime();
        if (maxRunTime == null || ranBefore == null) {
            return "";
        }
        long left = BatchScripts.timeLimitMinutes(maxRunTime.minus(ranBefore).compareTo(Duration.ofMinutes(1)) < 0
                ? Duration.ofMinutes(1) : maxRunTime.minus(ranBefore), 0);
        return "; it has %d of max_run_time's %d minutes left (they count from the job's first start, the waits before"
                .formatted(left, BatchScripts.timeLimitMinutes(maxRunTime, 0)) + " restarts included)";
    }

    /**
     * A job read back while it waited out its backoff: if Slurm has a job of its name newer than its
     * last attempt's (Slurm's ids only grow, and the service submits one attempt at a time), that is the
     * attempt submitted before the service stopped, and the job goes on with it.
     */
    public static SlurmJob adopt(SlurmJob job, List<SlurmJobInfo> slurmJobs) {
        if (job.restartAt() == null || job.isFinished()) {
            return job;
        }
        String name = BatchScripts.jobName(job.plan());
        return slurmJobs.stream().filter(info -> info.name().equals(name) && info.submittedId() > job.slurmId())
                .map(SlurmJobInfo::submittedId).max(Comparator.naturalOrder())
                .map(id -> job.nextAttempt(id, job.restartAt(), submitted(job, id))).orElse(job);
    }

    private static JobStatus submitted(SlurmJob job, long id) {
        return submitted(job, id, null);
    }

    /** @param ranBefore how long the job has been going since its first start, backoffs included; null: not known */
    private static JobStatus submitted(SlurmJob job, long id, Duration ranBefore) {
        JobStatus s = job.status();
        String message = "restart %d of %d: submitted to Slurm as job %d".formatted(job.attempt(),
                job.plan().spec().lifecycle().maxRestartsOrDefault(), id) + runTimeLeft(job, ranBefore);
        return AttemptLedger.of(s).restartingShown(s, message);
    }
}
