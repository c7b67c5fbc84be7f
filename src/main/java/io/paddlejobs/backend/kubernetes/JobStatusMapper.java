package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A job's status from its objects: a pure function, so that every rule can be tested with
 * objects written by hand, and acting on a status (scaling pservers down) stays elsewhere.
 *
 * <p>The trainer Job decides how a job ends: {@code Complete} is success, {@code Failed} (any
 * trainer failing, with no retries) is failure, our annotation is cancellation. Before that, a
 * job runs once every trainer has started; until then it is pending, and the first replica not
 * running says why.
 */
final class JobStatusMapper {

    private JobStatusMapper() {
    }

    static JobStatus map(JobPlan plan, ObservedJob observed) {
        String cancelledAt = observed.cancelledAt();
        JobCondition complete = condition(observed, "Complete");
        JobCondition failed = condition(observed, "Failed");
        boolean over = cancelledAt != null || complete != null || failed != null;

        List<PodStates.Observed> replicas = new ArrayList<>();
        for (Replica replica : plan.replicas()) {
            replicas.add(PodStates.observe(replica.role(), replica.index(), replica.host(),
                    observed.pod(replica.role(), replica.index()), over));
        }
        List<ReplicaStatus> statuses = replicas.stream().map(PodStates.Observed::status).toList();
        var trainers = statuses.stream().filter(r -> r.role() == Role.TRAINER).toList();
        var pservers = statuses.stream().filter(r -> r.role() == Role.PSERVER).toList();
        var job = observed.trainerJob();
        Instant created = PodStates.instant(job.getMetadata().getCreationTimestamp());
        Instant started = statuses.stream().map(ReplicaStatus::startedAt).filter(Objects::nonNull)
                .min(Comparator.naturalOrder())
                .orElse(over && job.getStatus() != null ? PodStates.instant(job.getStatus().getStartTime()) : null);

        JobPhase phase;
        String reason = null;
        String message = null;
        Instant finished = null;
        PodStates.Observed failedTrainer = first(replicas, Role.TRAINER, ReplicaState.FAILED);
        if (cancelledAt != null) {
            phase = JobPhase.CANCELLED;
            reason = "Cancelled";
            message = "cancelled on request";
            finished = Instant.parse(cancelledAt);
        } else if (complete != null) {
            phase = JobPhase.SUCCEEDED;
            finished = job.getStatus().getCompletionTime() != null
                    ? PodStates.instant(job.getStatus().getCompletionTime())
                    : PodStates.instant(complete.getLastTransitionTime());
        } else if (failed != null || failedTrainer != null) {
            phase = JobPhase.FAILED;
            if (failedTrainer != null) {
                reason = failedTrainer.cause();
                message = failedTrainer.status().id() + " failed: " + failedTrainer.status().reason();
            } else {
                reason = failed.getReason();
                message = failed.getMessage();
            }
            finished = failed != null && failed.getLastTransitionTime() != null
                    ? PodStates.instant(failed.getLastTransitionTime())
                    : latestFinish(trainers);
        } else {
            boolean trainersStarted = trainers.stream()
                    .allMatch(r -> r.state() == ReplicaState.RUNNING || r.state() == ReplicaState.SUCCEEDED);
            phase = trainersStarted ? JobPhase.RUNNING : JobPhase.PENDING;
            PodStates.Observed blocking = replicas.stream().filter(r -> r.cause() != null).findFirst().orElse(null);
            if (blocking != null) {
                reason = blocking.cause();
                message = blocking.status().id() + ": " + blocking.status().reason();
            }
        }
        return new JobStatus(phase, reason, message, created, started, finished, null,
                RoleCounts.of(plan.pservers().count(), pservers), RoleCounts.of(plan.trainers().count(), trainers),
                statuses);
    }

    private static PodStates.Observed first(List<PodStates.Observed> replicas, Role role, ReplicaState state) {
        return replicas.stream().filter(r -> r.status().role() == role && r.status().state() == state)
                .findFirst().orElse(null);
    }

    private static Instant latestFinish(List<ReplicaStatus> replicas) {
        return replicas.stream().map(ReplicaStatus::finishedAt).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
    }

    /** Whether the job has ended, one way or another: its pservers have nothing left to serve. */
    static boolean isOver(ObservedJob observed) {
        return observed.cancelledAt() != null || condition(observed, "Complete") != null
                || condition(observed, "Failed") != null;
    }

    /** A condition of the trainer Job that holds ({@code status: "True"}), or {@code null}. */
    static JobCondition condition(ObservedJob observed, String type) {
        var status = observed.trainerJob().getStatus();
        if (status == null || status.getConditions() == null) {
            return null;
        }
        return status.getConditions().stream()
                .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst().orElse(null);
    }
}
