package io.paddlejobs.job;

import java.time.Instant;
import java.util.List;

/**
 * A job's status, the same whichever backend runs it.
 *
 * @param reason        a one-word cause ({@code Queued}, {@code TrainerFailed}, {@code Unschedulable})
 * @param message       the cause in words a user can act on
 * @param queuePosition 1 for the next job to start, while it waits for a free slot; else {@code null}
 */
public record JobStatus(
        JobPhase phase,
        String reason,
        String message,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Integer queuePosition,
        RoleCounts pservers,
        RoleCounts trainers,
        List<ReplicaStatus> replicas) {

    public JobStatus {
        replicas = List.copyOf(replicas);
    }
}
