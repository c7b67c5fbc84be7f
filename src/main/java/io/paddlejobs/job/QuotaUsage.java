package io.paddlejobs.job;

/** What a namespace's pending and running jobs hold, as a {@link Quota} counts it. */
public record QuotaUsage(int unfinishedJobs, long gpusInUse) {
}
