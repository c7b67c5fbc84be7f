package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.paddlejobs.backend.kubernetes.lifecycle.JobLifecycle;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
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
 * objects written by hand, and acting on a status (releasing trainers, stopping pservers,
 * failing or removing a job) stays elsewhere ({@link JobLifecycle}). How a job ends is
 * {@link JobOutcome}'s.
 */
public final class JobStatusMapper {

    private JobStatusMapper() {
    }

    public static JobStatus map(JobPlan plan, ObservedJob observed) {
        boolean over = isOver(observed);
        boolean held = !over && observed.trainersSuspended();
        List<PodStates.Observed> replicas = new ArrayList<>();
        for (Replica replica : plan.replicas()) {
            var pod = observed.pod(replica.role(), replica.index());
            boolean suspended = replica.role() == Role.TRAINER ? held
                    : !over && observed.pserverJob() != null && observed.pserversSuspended();
            if (suspended && pod == null && observed.queued()) {
                replicas.add(PodStates.queued(replica.role(), replica.index(), replica.host(), observed.queue()));
            } else if (held && replica.role() == Role.TRAINER && pod == null) {
                replicas.add(PodStates.held(replica.role(), replica.index(), replica.host()));
            } else {
                replicas.add(PodStates.observe(replica.role(), replica.index(), replica.host(), pod, over));
            }
        }
        List<ReplicaStatus> statuses = JobOutcome.statuses(replicas);
        var job = observed.trainerJob();
        Instant created = PodFields.instant(job.getMetadata().getCreationTimestamp());
        Instant started = statuses.stream().map(ReplicaStatus::startedAt).filter(Objects::nonNull)
                .min(Comparator.naturalOrder())
                .orElse(over && job.getStatus() != null ? PodFields.instant(job.getStatus().getStartTime()) : null);
        JobOutcome outcome = JobOutcome.of(observed, replicas).explainedBy(observed.explanation());
        AttemptState state = observed.attempts();
        if (state.number() > 0 && outcome.phase() == JobPhase.PENDING) {
            // A job that ran once stays Running while a later attempt's pods are on their way, as on every backend.
            outcome = new JobOutcome(JobPhase.RUNNING, outcome.reason(), outcome.message(), null);
        }
        List<Attempt> attempts = attempts(plan, state, started, outcome);
        if (!state.ended().isEmpty()) {
            created = state.createdAt() != null ? state.createdAt() : created;
            started = state.ended().get(0).startedAt() != null ? state.ended().get(0).startedAt() : started;
        }
        return new JobStatus(outcome.phase(), outcome.reason(), outcome.message(), created, started, outcome.finished(),
                outcome.queuePosition(),
                RoleCounts.of(plan.pservers().count(), statuses.stream().filter(r -> r.role() == Role.PSERVER).toList()),
                RoleCounts.of(plan.trainers().count(), statuses.stream().filter(r -> r.role() == Role.TRAINER).toList()),
                statuses.stream().map(replica -> replica.restartedWithJob(state.number())).toList(), state.number(), attempts);
    }

    /**
     * Every attempt of a job that may restart: those that ended, then the current one once its replicas
     * started (not while it waits out its backoff). A job without restarts to spend shows none.
     */
    private static List<Attempt> attempts(JobPlan plan, AttemptState state, Instant started, JobOutcome outcome) {
        if (plan.spec().lifecycle().maxRestartsOrDefault() == 0 && state.ended().isEmpty()) {
            return List.of();
        }
        List<Attempt> attempts = new ArrayList<>(state.ended());
        if (!state.waiting() && (started != null || outcome.phase().isFinished())) {
            Attempt current = Attempt.begun(state.number(), started);
            attempts.add(outcome.phase().isFinished()
                    ? current.ended(outcome.finished(), outcome.reason(), outcome.message()) : current);
        }
        return attempts;
    }

    /**
     * Whether the job has ended, as its objects say, one way or another: its remaining replicas
     * have nothing left to do. A failed pserver counts before the service has recorded it.
     */
    static boolean isOver(ObservedJob observed) {
        return observed.cancelledAt() != null || observed.failedAt() != null
                || condition(observed.trainerJob(), "Complete") != null || condition(observed.trainerJob(), "Failed") != null
                || observed.pserverJob() != null && condition(observed.pserverJob(), "Failed") != null;
    }

    /** A condition of a Job that holds ({@code status: "True"}), or {@code null}. */
    public static JobCondition condition(Job job, String type) {
        var status = job.getStatus();
        if (status == null || status.getConditions() == null) {
            return null;
        }
        return status.getConditions().stream()
                .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst().orElse(null);
    }
}
