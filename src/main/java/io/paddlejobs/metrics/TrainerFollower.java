package io.paddlejobs.metrics;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one trainer's output through the backend's own log stream ({@code follow}), so it works
 * alike on every backend: on the local one it is the replica's log file, on Kubernetes the pod's
 * log. It reads from the start (a restarted service gets back what a job reported), follows
 * until the trainer ends, and waits (asking the backend's state, not its logs) while the trainer has
 * not started or its job waits to be started again (the next attempt's points continue the series).
 */
final class TrainerFollower implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(TrainerFollower.class);

    private final JobBackend jobs;
    private final JobKey key;
    private final int index;
    private final JobMetrics target;
    private final Duration retryInterval;
    private final Clock clock;
    private final Runnable whenJobGone;

    TrainerFollower(JobBackend jobs, JobKey key, int index, JobMetrics target, Duration retryInterval, Clock clock,
                    Runnable whenJobGone) {
        this.jobs = jobs;
        this.key = key;
        this.index = index;
        this.target = target;
        this.retryInterval = retryInterval;
        this.clock = clock;
        this.whenJobGone = whenJobGone;
    }

    @Override
    public void run() {
        String replica = Replica.idOf(Role.TRAINER, index);
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Optional<ReplicaState> state = state();
                if (state.isEmpty()) {
                    whenJobGone.run();
                    return;
                }
                if (state.get() == ReplicaState.PENDING) {
                    // Nothing to read before it runs; on Kubernetes each try would cost the API server a
                    // log request, for every waiting trainer of every job. Its state is read from memory.
                    Thread.sleep(retryInterval.toMillis());
                    continue;
                }
                boolean ended = hasEnded(state.get());
                LineSink sink = new LineSink(line -> {
                    Instant at = now();
                    if (target.read(replica, line, at)) {
                        jobs.newStepReported(key, replica, at);
                    }
                }, target::ignoreLine);
                if (!jobs.writeLogs(key, Role.TRAINER, index, null, !ended, sink)) {
                    whenJobGone.run();
                    return;
                }
                Optional<ReplicaState> after = ended ? state : state();
                if (after.isEmpty() || ended) {
                    sink.finish();
                    return;
                }
                if (hasEnded(after.get())) {
                    sink.finish(); // read while running: the follow read to the end
                    return;
                }
                // The log is not there yet (a container still starting), or its stream broke: read it again.
                // Points already taken come again with the same steps, and are not added twice.
                Thread.sleep(retryInterval.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return; // the service is stopping
            }
            log.warn("Stopped reading the metrics of {} in {}: {}", replica, key, e.toString());
        }
    }

    /** Whether the trainer has yet to start; false once it has, or when the job is gone. */
    boolean trainerPending() {
        return state().filter(s -> s == ReplicaState.PENDING).isPresent();
    }

    /** The trainer's state; empty when the job is gone, or is another one now under the same name. */
    private Optional<ReplicaState> state() {
        return jobs.find(key)
                .filter(job -> Objects.equals(job.status().createdAt(), target.jobCreatedAt()))
                .flatMap(this::trainer);
    }

    /** A trainer of a job waiting for its next attempt is to run again: its series goes on then. */
    private Optional<ReplicaState> trainer(Job job) {
        if (RestartDecision.RESTARTING.equals(job.status().reason()) && !job.status().phase().isFinished()) {
            return Optional.of(ReplicaState.PENDING);
        }
        return job.status().replicas().stream()
                .filter(r -> r.role() == Role.TRAINER && r.index() == index)
                .map(ReplicaStatus::state)
                .findFirst();
    }

    private static boolean hasEnded(ReplicaState state) {
        return state != ReplicaState.PENDING && state != ReplicaState.RUNNING;
    }

    private Instant now() {
        return clock.instant();
    }
}
