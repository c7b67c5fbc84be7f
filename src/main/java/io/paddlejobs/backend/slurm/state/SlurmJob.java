package io.paddlejobs.backend.slurm.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.AttemptLedger;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.SharedValues;
import java.time.Instant;
import java.util.List;

/**
 * A job as the service tracks it, and as its record ({@code job.json}) keeps it: Slurm forgets
 * finished jobs, so the final status lives here. Each attempt of a job that may restart is a Slurm
 * job of its own; the record holds the current one's id, and the restart count and attempts in
 * its status.
 *
 * @param slurmId         Slurm's job id of the current attempt; 0 while the first is being submitted
 * @param placed          the plan's hosts and ports are the ones Slurm gave (see {@link Placement})
 * @param cancelRequested the service cancelled it (a cancel from elsewhere is a failure)
 * @param unplaced        the plan as submitted, its hosts still tokens, from which each attempt is
 *                        placed anew (Slurm may give it other nodes); {@code null} for a job that never
 *                        restarts, and in records from before restarts
 * @param restartAt       when the next attempt is submitted, while the job waits out its backoff; else {@code null}
 */
public record SlurmJob(JobPlan plan, long slurmId, Instant createdAt, boolean placed, boolean cancelRequested,
                JobStatus status, JobPlan unplaced, Instant restartAt) {

    /** A job that waits for no restart (and keeps no plan to restart with). */
    SlurmJob(JobPlan plan, long slurmId, Instant createdAt, boolean placed, boolean cancelRequested, JobStatus status) {
        this(plan, slurmId, createdAt, placed, cancelRequested, status, null, null);
    }

    /** A job not yet submitted: its first attempt opens when it is ({@link #submitted}). */
    public static SlurmJob submitting(JobPlan plan, Instant now, JobStatus status) {
        boolean mayRestart = plan.spec().lifecycle().maxRestartsOrDefault() > 0;
        return new SlurmJob(plan, 0, now, false, false, status, mayRestart ? plan : null, null);
    }

    public JobKey key() {
        return new JobKey(plan.namespace(), plan.name());
    }

    public Job toJob() {
        return new Job(plan, status);
    }

    @JsonIgnore // not part of the record: a public isX() would otherwise be written as a property "x"
    public boolean isFinished() {
        return status.phase().isFinished();
    }

    /** The current attempt: 0 for the first, then the restart it is. */
    public int attempt() {
        return status.restarts();
    }

    SlurmJob with(JobPlan newPlan, boolean nowPlaced, JobStatus newStatus) {
        return new SlurmJob(newPlan, slurmId, createdAt, nowPlaced, cancelRequested, newStatus, unplaced, restartAt);
    }

    SlurmJob with(JobStatus newStatus, Instant nextAttemptAt) {
        return new SlurmJob(plan, slurmId, createdAt, placed, cancelRequested, newStatus, unplaced, nextAttemptAt);
    }

    /** Slurm took the first attempt as job {@code id}. */
    public SlurmJob submitted(long id) {
        return new SlurmJob(plan, id, createdAt, placed, cancelRequested, withOpenAttempt(status, createdAt),
                unplaced, restartAt);
    }

    /** Slurm took the attempt the backoff was for as job {@code id}: placed anew, once it starts. */
    SlurmJob nextAttempt(long id, Instant now, JobStatus waiting) {
        return new SlurmJob(unplaced, id, createdAt, false, cancelRequested, withOpenAttempt(waiting, now),
                unplaced, null);
    }

    /**
     * The same job with its plans' equal environment values held once, as read back from its record: there
     * each replica's environment is written out whole, and the largest plans would hold megabytes each.
     */
    SlurmJob compacted() {
        SharedValues shared = new SharedValues();
        return new SlurmJob(shared.compact(plan), slurmId, createdAt, placed, cancelRequested, status,
                shared.compact(unplaced), restartAt);
    }

    SlurmJob withCancelRequested(boolean requested) {
        return new SlurmJob(plan, slurmId, createdAt, placed, requested, status, unplaced, restartAt);
    }

    SlurmStatusMapper.Tracked tracked(List<SlurmJobInfo> components, ReplicaMarks marks) {
        return new SlurmStatusMapper.Tracked(plan, createdAt, cancelRequested, components, marks);
    }

    /** The status with its current attempt (the restart it shows) begun at {@code at}, for a job that may restart. */
    private JobStatus withOpenAttempt(JobStatus of, Instant at) {
        return unplaced == null ? of : AttemptLedger.of(of).begin(at).on(of);
    }
}
