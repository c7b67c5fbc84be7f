package io.paddlejobs.job;

import io.paddlejobs.planning.JobPlan;

/** A submitted job: what was planned, and how it stands. */
public record Job(JobPlan plan, JobStatus status) {

    public JobKey key() {
        return new JobKey(plan.namespace(), plan.name());
    }
}
