package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.planning.JobPlan;

/** The request's {@code max_run_time} as the trainer Job's {@code activeDeadlineSeconds}. */
public final class MaxRunTime {

    /** What the Job controller writes as the reason of a Job that ran past its deadline. */
    public static final String DEADLINE_EXCEEDED = "DeadlineExceeded";

    private MaxRunTime() {
    }

    /** @return {@code null} when the request sets no maximum */
    public static Long seconds(JobPlan plan) {
        var limit = plan.spec().lifecycle().maxRunTime();
        return limit == null ? null : limit.toSeconds();
    }
}
