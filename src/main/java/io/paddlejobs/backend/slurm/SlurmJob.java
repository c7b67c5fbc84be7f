package io.paddlejobs.backend.slurm;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import java.time.Instant;

/**
 * A job as the service tracks it, and as its record ({@code job.json}) keeps it: Slurm forgets
 * finished jobs, so the final status lives here.
 *
 * @param slurmId         Slurm's job id; 0 while it is being submitted
 * @param placed          the plan's hosts and ports are the ones Slurm gave (see {@link Placement})
 * @param cancelRequested the service cancelled it (a cancel from elsewhere is a failure)
 */
record SlurmJob(JobPlan plan, long slurmId, Instant createdAt, boolean placed, boolean cancelRequested,
                JobStatus status) {

    JobKey key() {
        return new JobKey(plan.namespace(), plan.name());
    }

    Job toJob() {
        return new Job(plan, status);
    }

    boolean isFinished() {
        return status.phase().isFinished();
    }

    SlurmJob with(JobPlan newPlan, boolean nowPlaced, JobStatus newStatus) {
        return new SlurmJob(newPlan, slurmId, createdAt, nowPlaced, cancelRequested, newStatus);
    }

    SlurmJob submitted(long id) {
        return new SlurmJob(plan, id, createdAt, placed, cancelRequested, status);
    }

    SlurmJob withCancelRequested(boolean requested) {
        return new SlurmJob(plan, slurmId, createdAt, placed, requested, status);
    }

    SlurmStatusMapper.Tracked tracked(java.util.List<SlurmJobInfo> components, ReplicaMarks marks) {
        return new SlurmStatusMapper.Tracked(plan, createdAt, cancelRequested, components, marks);
    }
}
