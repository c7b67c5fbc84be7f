package io.paddlejobs.job;

import java.time.Instant;
import java.util.List;

/**
 * A job's status, the same whichever backend runs it.
 *
 * @param reason        a one-word cause ({@code Queued}, {@code TrainerFailed}, {@code Unschedulable})
 * @param message       the cause in words a user can act on
 * @param queuePosition 1 for the next job to start, while it waits for a free slot (local) or in a Kueue queue
 *                      whose visibility API is served (kubernetes: its place in the ClusterQueue); else {@code null}
 * @param restarts      how many times the whole job was started again after a failure
 * @param attempts      each run of the job's replicas, oldest first, when it may restart; else empty
 * @param progress      how far the training is, from the trainers' reports; {@code null} when none reported.
 *                      Backends leave it out: the service adds it from the metrics it reads
 * @param archived      whether this is what the job history kept of a job its backend no longer has
 *                      ({@link JobHistory}); backends leave it false
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
        List<ReplicaStatus> replicas,
        int restarts,
        List<Attempt> attempts,
        Progress progress,
        boolean archived) {

    /** The reason of a job that succeeded, on every backend. */
    public static final String COMPLETED = "Completed";
    /** The message of a job that succeeded, on every backend. */
    public static final String COMPLETED_MESSAGE = "every trainer exited 0";

    public JobStatus {
        replicas = List.copyOf(replicas);
        attempts = attempts == null ? List.of() : List.copyOf(attempts);
    }

    /** A status as a backend reads it: not archived. */
    public JobStatus(JobPhase phase, String reason, String message, Instant createdAt, Instant startedAt,
                     Instant finishedAt, Integer queuePosition, RoleCounts pservers, RoleCounts trainers,
                     List<ReplicaStatus> replicas, int restarts, List<Attempt> attempts, Progress progress) {
        this(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition, pservers, trainers, replicas,
                restarts, attempts, progress, false);
    }

    /** A backend's status: everything but the progress, which the service adds. */
    public JobStatus(JobPhase phase, String reason, String message, Instant createdAt, Instant startedAt,
                     Instant finishedAt, Integer queuePosition, RoleCounts pservers, RoleCounts trainers,
                     List<ReplicaStatus> replicas, int restarts, List<Attempt> attempts) {
        this(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition, pservers, trainers, replicas,
                restarts, attempts, null);
    }

    /** The same status showing this phase, reason and message; the rest as it was. */
    public JobStatus with(JobPhase newPhase, String newReason, String newMessage) {
        return new JobStatus(newPhase, newReason, newMessage, createdAt, startedAt, finishedAt, queuePosition, pservers,
                trainers, replicas, restarts, attempts, progress, archived);
    }

    /** The same status, ended at {@code at} as given: it waits in no queue any more. */
    public JobStatus endedAs(JobPhase newPhase, String newReason, String newMessage, Instant at) {
        return new JobStatus(newPhase, newReason, newMessage, createdAt, startedAt, at, null, pservers, trainers,
                replicas, restarts, attempts, progress, archived);
    }

    /** The same status with these start and finish times. */
    public JobStatus withTimes(Instant newStartedAt, Instant newFinishedAt) {
        return new JobStatus(phase, reason, message, createdAt, newStartedAt, newFinishedAt, queuePosition, pservers,
                trainers, replicas, restarts, attempts, progress, archived);
    }

    /** The same status with this queue position ({@code null}: it waits in no queue). */
    public JobStatus withQueuePosition(Integer newQueuePosition) {
        return new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, newQueuePosition, pservers,
                trainers, replicas, restarts, attempts, progress, archived);
    }

    /**
     * The same status with this restart count and these attempts; each replica restarted at least as
     * often (a restart of the job starts every replica again).
     */
    public JobStatus withAttempts(int newRestarts, List<Attempt> newAttempts) {
        return new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition, pservers,
                trainers, replicas.stream().map(replica -> replica.restartedWithJob(newRestarts)).toList(),
                newRestarts, newAttempts, progress, archived);
    }

    /** The same status with this progress. */
    public JobStatus withProgress(Progress newProgress) {
        return new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition, pservers,
                trainers, replicas, restarts, attempts, newProgress, archived);
    }

    /** The same status, as the job history keeps it once the backend forgot the job. */
    public JobStatus asArchived() {
        return new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition, pservers,
                trainers, replicas, restarts, attempts, progress, true);
    }

    /** The status of a job that has not been restarted. */
    public JobStatus(JobPhase phase, String reason, String message, Instant createdAt, Instant startedAt,
                     Instant finishedAt, Integer queuePosition, RoleCounts pservers, RoleCounts trainers,
                     List<ReplicaStatus> replicas) {
        this(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition, pservers, trainers, replicas,
                0, List.of());
    }
}
