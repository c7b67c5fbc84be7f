package io.paddlejobs.backend.kubernetes.lifecycle;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.status.AttemptState;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the service does to a job next, decided purely from its objects, its status and the
 * time. The Job controller runs the pods, the TTL controller removes finished Jobs, and the
 * garbage collector removes what a trainer Job owns; what they do not do is here:
 * <ul>
 *   <li>release the trainers (created suspended) once every pserver is ready, unless Kueue
 *       manages the job: then Kueue releases them, and the trainers wait for the pservers themselves;</li>
 *   <li>fail a job whose pserver failed, or that stayed pending past the pending timeout,
 *       recording why and stopping what runs;</li>
 *   <li>stop the pservers of a job that is over;</li>
 *   <li>restart a job whose attempt failed while it has restarts to spend, and start the next attempt
 *       once its backoff has passed ({@link Restarts});</li>
 *   <li>keep a job the service ended (cancelled or failed) suspended, whoever resumes it, and
 *       remove it once the TTL has passed since it ended: the TTL controller only acts on Jobs
 *       that are {@code Complete} or {@code Failed}, which a suspended Job never becomes.</li>
 * </ul>
 * Each action states its end result, so doing it twice (a retry, another replica of this
 * service) changes nothing.
 */
public final class JobLifecycle {

    /** One change to a job's objects. */
    public sealed interface Action {
    }

    /** Resume the trainer Job: every pserver is ready. */
    record ReleaseTrainers() implements Action {
    }

    /** Record the failure on the trainer Job and stop every replica. */
    public record Fail(String reason, String message) implements Action {
    }

    /** Suspend the trainer Job again: a job the service ended stays ended. */
    public record StopTrainers() implements Action {
    }

    public record StopPservers() implements Action {
    }

    /** End the failed attempt and make the next one, which waits out its backoff. */
    record Restart(AttemptState next) implements Action {
    }

    /** The backoff has passed: start the waiting attempt's replicas. */
    record StartAttempt() implements Action {
    }

    /** Remove the job: it ended long enough ago. */
    public record Remove() implements Action {
    }

    private JobLifecycle() {
    }

    public static List<Action> next(JobPlan plan, ObservedJob job, JobStatus status, Instant now, KubernetesProperties settings,
                             RestartBackoff backoff) {
        List<Action> actions = new ArrayList<>();
        String endedAt = job.cancelledAt() != null ? job.cancelledAt() : job.failedAt();
        if (job.jobSet()) {
            return forJobSet(job, status, endedAt, now, settings);
        }
        if (endedAt != null) {
            if (!job.trainersStopped()) {
                actions.add(new StopTrainers());
            }
            if (!job.pserversSuspended()) {
                actions.add(new StopPservers());
            }
            if (!Instant.parse(endedAt).plusSeconds(settings.ttlSecondsAfterFinished()).isAfter(now)) {
                actions.add(new Remove());
            }
            return actions;
        }
        if (job.attempts().waiting()) {
            if (!job.attempts().restartAt().isAfter(now)) {
                actions.add(new StartAttempt());
            }
            return actions;
        }
        if (status.phase().isFinished()) {
            Optional<Action> restart = Restarts.after(plan, job, status, now, backoff);
            if (restart.isPresent()) {
                actions.add(restart.get());
                return actions;
            }
            boolean endedByController = JobStatusMapper.condition(job.trainerJob(), "Complete") != null
                    || JobStatusMapper.condition(job.trainerJob(), "Failed") != null;
            boolean trainerFailed = status.replicas().stream()
                    .anyMatch(r -> r.role() == Role.TRAINER && r.state() == ReplicaState.FAILED);
            boolean trainersSucceeded = status.phase() == JobPhase.SUCCEEDED;
            if (!endedByController && !trainerFailed && !trainersSucceeded) {
                // A pserver failed: the trainer Job would run on; record why, and stop it.
                actions.add(new Fail(status.reason(), status.message()));
            } else if (!job.pserversSuspended()) {
                actions.add(new StopPservers());
            }
            return actions;
        }
        // Under Kueue a job may wait in its queue as long as the queue says; Kueue's own
        // waitForPodsReady is the operator's limit on an admitted job that does not start.
        if (!job.queued() && pendingTooLong(status, now, settings.pendingTimeout())) {
            actions.add(new Fail("PendingTimeout", "still pending after " + describe(settings.pendingTimeout())
                    + (status.message() == null ? "" : "; last: " + status.message())));
            return actions;
        }
        if (!job.queued() && job.trainersSuspended() && everyPserverReady(plan, job)) {
            actions.add(new ReleaseTrainers());
        }
        return actions;
    }

    /**
     * A JobSet's controller holds the trainers until the pservers are ready, restarts it, stops the pservers when
     * it is over and removes it after its TTL; the service still stops one it ended (keeping the JobSet
     * suspended), removes that after the TTL, and fails one pending too long.
     */
    private static List<Action> forJobSet(ObservedJob job, JobStatus status, String endedAt, Instant now,
                                          KubernetesProperties settings) {
        List<Action> actions = new ArrayList<>();
        if (endedAt != null) {
            if (!job.trainersSuspended()) {
                actions.add(new StopTrainers());
            }
            if (!Instant.parse(endedAt).plusSeconds(settings.ttlSecondsAfterFinished()).isAfter(now)) {
                actions.add(new Remove());
            }
        } else if (!job.queued() && pendingTooLong(status, now, settings.pendingTimeout())) {
            actions.add(new Fail("PendingTimeout", "still pending after " + describe(settings.pendingTimeout())
                    + (status.message() == null ? "" : "; last: " + status.message())));
        }
        return actions;
    }

    static boolean everyPserverReady(JobPlan plan, ObservedJob job) {
        for (int i = 0; i < plan.pservers().count(); i++) {
            if (!PodStates.ready(job.pod(Role.PSERVER, i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean pendingTooLong(JobStatus status, Instant now, Duration timeout) {
        return status.phase() == JobPhase.PENDING && !timeout.isZero() && status.createdAt() != null
                && !status.createdAt().plus(timeout).isAfter(now);
    }

    private static String describe(Duration duration) {
        return duration.toSeconds() % 60 == 0 ? duration.toMinutes() + " min" : duration.toSeconds() + " s";
    }
}
