package io.paddlejobs.backend.kubernetes.lifecycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.paddlejobs.backend.StepSightings;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.attempt.StallJudge;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * {@code stall_timeout} on Kubernetes: a trainer's last sign of life is the last time a read of its
 * pod's log saw it print ({@link TrainerLines}), judged as on the other backends ({@link StallWatch}).
 * Nothing the informers see changes when a job falls silent, so the reconciler looks at each running
 * job with a timeout every {@link StallWatch#interval()}, tells the job's listeners when its warning
 * comes or goes, and fails the attempt where {@code restart_on} names {@code stall}.
 */
public final class KubernetesStalls {

    private final TrainerLines lines;
    /** When each trainer last reported a new step, from the metrics reader. */
    private final StepSightings steps = new StepSightings();
    /** Jobs last told as stalled: a change is told once when the warning comes, once when it goes. */
    private final Set<JobKey> toldStalled = ConcurrentHashMap.newKeySet();

    public KubernetesStalls(TrainerLines lines) {
        this.lines = lines;
    }

    /** The metrics reader saw a trainer report a new step: from then on, only new steps are its progress. */
    public void sawNewStep(JobKey key, String replica, Instant at) {
        steps.saw(key, replica, at);
    }

    /** How often to look at the job for a stall, or empty while there is nothing to watch (no timeout, not running). */
    static Optional<Duration> lookEvery(JobPlan plan, ObservedJob job, JobStatus status) {
        Duration timeout = plan.spec().lifecycle().stallTimeout();
        if (timeout == null || !running(job, status)) {
            return Optional.empty();
        }
        return Optional.of(new StallWatch(timeout, Instant.EPOCH).interval());
    }

    /** Which trainers were silent since when, when the job's running attempt has stalled; else empty. */
    public Optional<String> silence(JobPlan plan, ObservedJob job, JobStatus status, Instant now) {
        Duration timeout = plan.spec().lifecycle().stallTimeout();
        if (timeout == null || !running(job, status)) {
            return Optional.empty();
        }
        JobKey key = new JobKey(job.namespace(), job.name());
        Map<String, Integer> trainers = status.replicas().stream().filter(r -> r.role() == Role.TRAINER)
                .collect(Collectors.toMap(ReplicaStatus::id, ReplicaStatus::index));
        return new StallWatch(timeout, StallWatch.began(status)).silence(status.replicas(), id -> {
            Pod pod = job.pod(Role.TRAINER, trainers.get(id));
            return pod == null ? null : lines.lastPrinted(key, trainers.get(id), pod.getMetadata().getName());
        }, id -> steps.last(key, id), now);
    }

    /** The status as a stall shows it: the attempt failed where {@code restart_on} names stall, else a warning. */
    public static JobStatus shown(JobPlan plan, JobStatus status, Optional<String> silence, Instant now) {
        return StallJudge.shown(plan.spec(), status, silence, now);
    }

    /** Whether the job's stall warning came or went since last told (and so is to be told now). */
    boolean changed(JobKey key, boolean stalled) {
        return stalled ? toldStalled.add(key) : toldStalled.remove(key);
    }

    public void forget(JobKey key) {
        toldStalled.remove(key);
        lines.forget(key);
    }

    /** A running attempt the service has not ended, nor is waiting to start. */
    private static boolean running(ObservedJob job, JobStatus status) {
        return status.phase() == JobPhase.RUNNING && status.startedAt() != null
                && job.cancelledAt() == null && job.failedAt() == null && !job.attempts().waiting();
    }
}
