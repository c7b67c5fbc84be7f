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
    /** The first attempt whose log has not been read while it was the current one. */
    private int unread;

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
                Optional<Seen> seen = seen();
                if (seen.isEmpty()) {
                    whenJobGone.run();
                    return;
                }
                if (seen.get().state() == ReplicaState.PENDING) {
                    // Nothing to read before it runs; on Kubernetes each try would cost the API server a
                    // log request, for every waiting trainer of every job. Its state is read from memory.
                    Thread.sleep(retryInterval.toMillis());
                    continue;
                }
                boolean ended = hasEnded(seen.get().state());
                // The attempt the backend serves the log of now: it changes only once this read has ended.
                int attempt = seen.get().attempt();
                readEarlierThan(attempt, replica);
                LineSink sink = new LineSink(line -> {
                    Instant at = now();
                    if (target.read(replica, line, at, attempt)) {
                        jobs.newStepReported(key, replica, at);
                    }
                }, target::ignoreLine);
                if (!jobs.writeLogs(key, Role.TRAINER, index, null, !ended, sink)) {
                    whenJobGone.run();
                    return;
                }
                Optional<ReplicaState> after = ended ? seen.map(Seen::state) : state();
                if (after.isEmpty() || ended || hasEnded(after.get())) {
                    sink.finish(); // ended: read to the end (a follow read while it ran reads to its end too)
                    if (!awaitNextAttempt(attempt)) {
                        return;
                    }
                    continue;
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

    /**
     * The attempts before {@code attempt} that were not read while they were the current one, from the logs the
     * backend keeps of them: an attempt that ended before this follower first looked (a restart within a poll), or
     * whose last lines came after the follow ended. Points read before come again with their steps, and are not
     * added twice; these lines are no sign of the current attempt's progress.
     */
    private void readEarlierThan(int attempt, String replica) throws IOException {
        for (; unread < attempt; unread++) {
            int earlier = unread;
            if (jobs.keepsEarlierAttemptLogs()) {
                LineSink sink = new LineSink(line -> target.read(replica, line, now(), earlier), target::ignoreLine);
                jobs.writeEarlierLog(key, Role.TRAINER, index, earlier, null, sink);
                sink.finish();
            }
        }
    }

    /**
     * After the trainer ended in {@code attempt}: waits while its job still runs, since a job that restarts starts it
     * again (it may be seen ended before the job has decided to).
     *
     * @return true once a later attempt is the job's, false once the job has ended or is gone
     */
    private boolean awaitNextAttempt(int attempt) throws InterruptedException {
        while (true) {
            Optional<Job> job = job();
            if (job.isEmpty()) {
                return false;
            }
            if (job.get().status().restarts() > attempt) {
                return true; // also when that attempt has ended too: its log is read then
            }
            if (job.get().status().phase().isFinished()) {
                return false;
            }
            Thread.sleep(retryInterval.toMillis());
        }
    }

    /** Whether the trainer has yet to start; false once it has, or when the job is gone. */
    boolean trainerPending() {
        return state().filter(s -> s == ReplicaState.PENDING).isPresent();
    }

    /** The trainer's state; empty when the job is gone, or is another one now under the same name. */
    private Optional<ReplicaState> state() {
        return seen().map(Seen::state);
    }

    /** The trainer's state and the job's current attempt, from one read of the job. */
    private Optional<Seen> seen() {
        return job().flatMap(job -> trainer(job).map(state -> new Seen(state, job.status().restarts())));
    }

    /** The job this follower reads; empty when it is gone, or another one now bears its name. */
    private Optional<Job> job() {
        return jobs.find(key).filter(job -> Objects.equals(job.status().createdAt(), target.jobCreatedAt()));
    }

    /** @param attempt the job's current attempt, numbered from 0: its restarts so far */
    private record Seen(ReplicaState state, int attempt) {
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
