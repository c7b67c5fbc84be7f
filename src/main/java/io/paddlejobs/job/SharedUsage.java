package io.paddlejobs.job;

import io.paddlejobs.planning.JobPlan;
import java.util.function.Consumer;

/**
 * Admission that holds across several replicas of the service, for a backend whose store they all share
 * (Kubernetes): what a namespace's unfinished jobs hold as the store has it, together with the places other
 * replicas have just claimed for jobs their caches may not show yet, and a claim on the new job's place,
 * written to the store atomically. Without it, each replica counts only the jobs it has seen.
 */
public interface SharedUsage {

    /**
     * Claims the job's place in its namespace if {@code fits} accepts the usage it finds; no other replica's
     * claim lands between that look and this claim.
     *
     * @param fits throws (a {@link QuotaExceededException}) when the job does not fit; then nothing is claimed
     */
    void claim(JobPlan plan, Consumer<QuotaUsage> fits);

    /** Gives back the place of a job whose create failed. A claim not given back lapses on its own. */
    void release(JobKey key);
}
