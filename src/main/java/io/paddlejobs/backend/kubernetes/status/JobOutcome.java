package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.MaxRunTime;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Where a job stands, decided from its objects and its replicas' states, first rule that holds:
 * cancelled on request; failed by this service (a pserver failed, or it was pending too long);
 * waiting out the backoff before its next attempt ({@code Running}, reason {@code Restarting}); completed; failed by the Job controller (a trainer failed, or {@code max_run_time} passed); a
 * pserver failed (before the service has recorded it); else running once every trainer runs,
 * pending until then, with the first replica that waits saying why.
 *
 * @param queuePosition where a job waiting in a queue stands in it (1: the next to start); {@code null} when
 *                      it waits in none, or its place is not known
 */
public record JobOutcome(JobPhase phase, String reason, String message, Instant finished, Integer queuePosition) {

    JobOutcome(JobPhase phase, String reason, String message, Instant finished) {
        this(phase, reason, message, finished, null);
    }

    /** Why the Job controller fails a Job whose pods did not fail: one was deleted, or went with its node. */
    /** The reason of a job that ran longer than its {@code max_run_time}: stopped, never restarted. */
    public static final String MAX_RUN_TIME_EXCEEDED = "MaxRunTimeExceeded";
    static final String LOST = "a replica's pod was deleted, or lost with its node, before it ended";

    static JobOutcome of(ObservedJob observed, List<PodStates.Observed> replicas) {
        var job = observed.trainerJob();
        if (observed.cancelledAt() != null) {
            String reason = observed.annotation(JobLabels.CANCELLED_REASON_ANNOTATION);
            return reason == null
                    ? new JobOutcome(JobPhase.CANCELLED, "Cancelled", "cancelled on request", Instant.parse(observed.cancelledAt()))
                    : new JobOutcome(JobPhase.CANCELLED, reason, observed.annotation(JobLabels.CANCELLED_MESSAGE_ANNOTATION),
                            Instant.parse(observed.cancelledAt()));
        }
        if (observed.failedAt() != null) {
            return new JobOutcome(JobPhase.FAILED, observed.annotation(JobLabels.FAILED_REASON_ANNOTATION),
                    observed.annotation(JobLabels.FAILED_MESSAGE_ANNOTATION), Instant.parse(observed.failedAt()));
        }
        AttemptState attempts = observed.attempts();
        if (attempts.waiting()) {
            return new JobOutcome(JobPhase.RUNNING, RestartDecision.RESTARTING, attempts.restartMessage(), null);
        }
        JobCondition complete = JobStatusMapper.condition(job, "Complete");
        if (complete != null) {
            return new JobOutcome(JobPhase.SUCCEEDED, JobStatus.COMPLETED, JobStatus.COMPLETED_MESSAGE, job.getStatus().getCompletionTime() != null
                    ? PodFields.instant(job.getStatus().getCompletionTime())
                    : PodFields.instant(complete.getLastTransitionTime()));
        }
        JobCondition failed = JobStatusMapper.condition(job, "Failed");
        if (failed == null && everyTrainerSucceeded(replicas)) {
            // What the Job controller will call Complete: said now, not when it gets to it (on a busy cluster, tens of
            // seconds later), so that the pservers are stopped and watchers told as soon as the training is over.
            return new JobOutcome(JobPhase.SUCCEEDED, JobStatus.COMPLETED, JobStatus.COMPLETED_MESSAGE, latestFinish(replicas));
        }
        PodStates.Observed failedTrainer = first(replicas, Role.TRAINER);
        if (failed != null || failedTrainer != null) {
            Instant at = failed != null && failed.getLastTransitionTime() != null
                    ? PodFields.instant(failed.getLastTransitionTime()) : latestFinish(replicas);
            if (failedTrainer != null) {
                return new JobOutcome(JobPhase.FAILED, failedTrainer.cause(),
                        failedTrainer.status().id() + " failed: " + failedTrainer.status().reason(), at);
            }
            if (MaxRunTime.DEADLINE_EXCEEDED.equals(failed.getReason())) {
                return new JobOutcome(JobPhase.FAILED, MAX_RUN_TIME_EXCEEDED, "ran longer than max_run_time ("
                        + job.getSpec().getActiveDeadlineSeconds() + " s); its replicas were stopped", at);
            }
            return new JobOutcome(JobPhase.FAILED, failed.getReason(), LOST + " (" + failed.getMessage() + ")", at);
        }
        JobOutcome pserverFailure = pserverFailure(observed, replicas);
        if (pserverFailure != null) {
            return pserverFailure;
        }
        return running(replicas);
    }

    /**
     * A pserver that failed fails the job: it will not come back (its Job has no retries), and
     * one that did would have lost its state.
     */
    static JobOutcome pserverFailure(ObservedJob observed, List<PodStates.Observed> replicas) {
        PodStates.Observed failedPserver = first(replicas, Role.PSERVER);
        if (failedPserver != null) {
            return new JobOutcome(JobPhase.FAILED, failedPserver.cause(),
                    failedPserver.status().id() + " failed: " + failedPserver.status().reason()
                            + "; a pserver is not restarted, as it would have lost its state", latestFinish(replicas));
        }
        JobCondition failed = observed.pserverJob() == null ? null : JobStatusMapper.condition(observed.pserverJob(), "Failed");
        if (failed != null) {
            return new JobOutcome(JobPhase.FAILED, "PserverFailed", "a pserver failed (" + failed.getReason() + ": "
                    + failed.getMessage() + ")", PodFields.instant(failed.getLastTransitionTime()));
        }
        return null;
    }

    private static JobOutcome running(List<PodStates.Observed> replicas) {
        boolean trainersStarted = replicas.stream().filter(r -> r.status().role() == Role.TRAINER)
                .allMatch(r -> r.status().state() == ReplicaState.RUNNING || r.status().state() == ReplicaState.SUCCEEDED);
        JobPhase phase = trainersStarted ? JobPhase.RUNNING : JobPhase.PENDING;
        PodStates.Observed blocking = replicas.stream().filter(r -> r.cause() != null).findFirst().orElse(null);
        if (blocking == null) {
            return new JobOutcome(phase, null, null, null);
        }
        return new JobOutcome(phase, blocking.cause(), blocking.status().id() + ": " + blocking.status().reason(), null);
    }

    /** The same outcome, where it only says a replica is on its way, explained by the cluster's last warning. */
    JobOutcome explainedBy(ObservedJob.Explanation explanation) {
        if (explanation == null || phase != JobPhase.PENDING || reason != null && !PodStates.UNEXPLAINED.contains(reason)) {
            return this;
        }
        return new JobOutcome(phase, explanation.reason(), explanation.object() + ": " + explanation.message(), finished,
                explanation.queuePosition());
    }

    /** Whether every trainer's pod of the current attempt exited 0. */
    static boolean everyTrainerSucceeded(List<PodStates.Observed> replicas) {
        List<PodStates.Observed> trainers = replicas.stream().filter(r -> r.status().role() == Role.TRAINER).toList();
        return !trainers.isEmpty() && trainers.stream().allMatch(r -> r.status().state() == ReplicaState.SUCCEEDED);
    }

    private static PodStates.Observed first(List<PodStates.Observed> replicas, Role role) {
        return replicas.stream().filter(r -> r.status().role() == role && r.status().state() == ReplicaState.FAILED)
                .findFirst().orElse(null);
    }

    private static Instant latestFinish(List<PodStates.Observed> replicas) {
        return replicas.stream().map(r -> r.status().finishedAt()).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
    }

    /** Only for the pure rules: replicas are the mapper's. */
    static List<ReplicaStatus> statuses(List<PodStates.Observed> replicas) {
        return replicas.stream().map(PodStates.Observed::status).toList();
    }
}
