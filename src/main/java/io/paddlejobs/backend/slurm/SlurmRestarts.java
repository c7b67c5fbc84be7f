package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.StallWatch;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.RestartOn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What an attempt's status means for a job that may restart: the status of the current attempt,
 * as {@link SlurmStatusMapper} maps it, with the job's restart count and attempts; and, once that
 * attempt has ended, whether the job fails or waits out a backoff for its next one
 * ({@link RestartDecision}, the same as on every backend). Pure: the poller asks, this answers.
 */
final class SlurmRestarts {

    /** Endings that are no failure of the attempt: a cancel (by the service or in Slurm) and the time limit ({@code max_run_time}). */
    private static final Set<String> NEVER_RETRIED = Set.of("Cancelled", "CancelledInSlurm", "TimeLimit", "Deadline");
    /** Endings that came from outside the program: a node lost, an out-of-memory kill, a preemption, a job Slurm lost. */
    private static final Set<String> FROM_OUTSIDE = Set.of("NodeFailed", "NodeBootFailed", "OutOfMemory", "Preempted",
            "Lost");

    private SlurmRestarts() {
    }

    /** A running or pending attempt as the job shows it: a restarted job stays {@code Running}, reason {@code Restarting}, until it runs again. */
    static JobStatus during(SlurmJob job, JobStatus mapped) {
        if (job.unplaced() == null) {
            return mapped;
        }
        JobStatus before = job.status();
        List<Attempt> attempts = new ArrayList<>(before.attempts());
        int last = attempts.size() - 1;
        if (last >= 0 && mapped.startedAt() != null && attempts.get(last).startedAt().isBefore(mapped.startedAt())) {
            Attempt open = attempts.get(last); // opened at its submission; it started when Slurm started it
            attempts.set(last, new Attempt(open.number(), mapped.startedAt(), null, null, null));
        }
        Instant started = before.startedAt() != null ? before.startedAt() : mapped.startedAt();
        if (job.attempt() > 0 && mapped.phase() == JobPhase.PENDING) {
            String message = "restart %d of %d: %s".formatted(job.attempt(),
                    job.plan().spec().lifecycle().maxRestartsOrDefault(), mapped.message());
            return status(mapped, JobPhase.RUNNING, RestartDecision.RESTARTING, message, started, null,
                    before.restarts(), attempts);
        }
        return status(mapped, mapped.phase(), mapped.reason(), mapped.message(), started, null, before.restarts(),
                attempts);
    }

    /**
     * The job once its current attempt has ended as {@code ended} (a final status, as the mapper saw it):
     * that status, with the attempt closed, or, where the attempt failed in a way {@code restart_on}
     * retries and restarts are left, the job {@code Running}, {@code Restarting}, due again after the backoff.
     */
    static SlurmJob ended(SlurmJob job, JobStatus ended, RestartBackoff backoff, Instant now) {
        if (job.unplaced() == null) {
            return job.with(ended, null);
        }
        JobStatus closed = closed(job, ended, now);
        if (ended.phase() != JobPhase.FAILED || NEVER_RETRIED.contains(ended.reason())) {
            return job.with(closed, null);
        }
        Integer exitCode = failedReplica(ended).map(ReplicaStatus::exitCode).orElse(null);
        RestartDecision decision = RestartDecision.after(job.plan().spec(), closed.restarts(), backoff, ended.message(),
                cause(ended.reason(), exitCode), exitCode);
        if (decision instanceof RestartDecision.Restart restart) {
            return job.with(status(closed, JobPhase.RUNNING, RestartDecision.RESTARTING, restart.message(),
                    closed.startedAt(), null, restart.restart(), closed.attempts()), now.plus(restart.backoff()));
        }
        return job.with(status(closed, JobPhase.FAILED, ended.reason(), ((RestartDecision.Fail) decision).message(),
                closed.startedAt(), closed.finishedAt(), closed.restarts(), closed.attempts()), null);
    }

    /** The job stopped by the service (a cancel): ended as {@code stopped} says, never restarted, its backoff if any over. */
    static SlurmJob stopped(SlurmJob job, JobStatus stopped, Instant now) {
        return job.with(job.unplaced() == null ? stopped : closed(job, stopped, now), null);
    }

    /** The final status with the current attempt closed, if one is open, and the job's first start. */
    private static JobStatus closed(SlurmJob job, JobStatus ended, Instant now) {
        JobStatus before = job.status();
        Instant at = ended.finishedAt() != null ? ended.finishedAt() : now;
        List<Attempt> attempts = new ArrayList<>(before.attempts());
        int last = attempts.size() - 1;
        if (last >= 0 && attempts.get(last).finishedAt() == null) {
            attempts.set(last, attempts.get(last).ended(at, ended.reason(), ended.message()));
        }
        Instant started = before.startedAt() != null ? before.startedAt() : ended.startedAt();
        return status(ended, ended.phase(), ended.reason(), ended.message(), started, ended.finishedAt(),
                before.restarts(), attempts);
    }

    /** How the attempt's failure came about, for {@code restart_on}. */
    static RestartOn.Cause cause(String reason, Integer exitCode) {
        if (StallWatch.STALLED.equals(reason)) {
            return RestartOn.Cause.STALL;
        }
        if (FROM_OUTSIDE.contains(reason)) {
            return RestartOn.Cause.INFRASTRUCTURE;
        }
        return exitCode == null ? RestartOn.Cause.EXIT : ExitCodes.cause(exitCode);
    }

    /** The replica the job's message names as the one that failed ({@code trainer-1 exited with code 3 ...}). */
    private static Optional<ReplicaStatus> failedReplica(JobStatus ended) {
        String message = ended.message() == null ? "" : ended.message();
        return ended.replicas().stream().filter(r -> r.exitCode() != null && message.startsWith(r.id() + " "))
                .findFirst();
    }

    /** The status with the job's restart count and attempts; a job with no restarts to spend shows no attempts. */
    static JobStatus withAttempts(JobStatus of, int restarts, List<Attempt> attempts) {
        return status(of, of.phase(), of.reason(), of.message(), of.startedAt(), of.finishedAt(), restarts, attempts);
    }

    private static JobStatus status(JobStatus of, JobPhase phase, String reason, String message, Instant started,
                                    Instant finished, int restarts, List<Attempt> attempts) {
        return new JobStatus(phase, reason, message, of.createdAt(), started, finished, of.queuePosition(),
                of.pservers(), of.trainers(),
                of.replicas().stream().map(replica -> replica.restartedWithJob(restarts)).toList(), restarts, attempts);
    }
}
