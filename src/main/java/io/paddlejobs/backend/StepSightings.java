package io.paddlejobs.backend;

import io.paddlejobs.job.JobKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each trainer last reported a step it had not reported before, as the metrics reader tells its
 * backend ({@link io.paddlejobs.job.JobBackend#newStepReported}): the stall judgement's sign of progress
 * for a job that reports steps ({@link io.paddlejobs.job.attempt.StallWatch}). Kept for the most recent {@value #JOBS} jobs.
 */
public final class StepSightings {

    private static final int JOBS = 10_000;

    private final Map<JobKey, Map<String, Instant>> byJob = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<JobKey, Map<String, Instant>> eldest) {
            return size() > JOBS;
        }
    };

    public synchronized void saw(JobKey key, String replica, Instant at) {
        byJob.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).merge(replica, at,
                (was, now) -> now.isAfter(was) ? now : was);
    }

    /** When the replica last reported a new step; {@code null} if it never has. */
    public synchronized Instant last(JobKey key, String replica) {
        Map<String, Instant> replicas = byJob.get(key);
        return replicas == null ? null : replicas.get(replica);
    }
}
