package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.job.JobPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The requests' {@code max_run_time}, counted from the start of the job as the Kubernetes backend's
 * {@code activeDeadlineSeconds} is: a job still running past it fails, with the reason that backend
 * gives, and its replicas are stopped. A limit is dropped as soon as its job ends, so that finished
 * jobs are not held until their limit would have passed.
 */
final class RunTimeLimits {

    static final String REASON = "MaxRunTimeExceeded";

    private final ScheduledExecutorService timers;
    private final Consumer<List<ReplicaProcess>> stop;
    private final Map<LocalJob, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();

    /**
     * @param timers runs the limits; it should drop cancelled tasks
     * @param stop   stops the processes of a job that ran too long, off the timer's thread
     */
    RunTimeLimits(ScheduledExecutorService timers, Consumer<List<ReplicaProcess>> stop) {
        this.timers = timers;
        this.stop = stop;
    }

    /** Limits a job that has just started; {@code null} means no limit. */
    void limit(LocalJob job, Duration maxRunTime) {
        if (maxRunTime != null) {
            schedule(job, maxRunTime, maxRunTime);
        }
    }

    /**
     * Limits a job that starts again, unless it is limited already: one read back from its record is limited
     * to what is left of its {@code max_run_time}, counted from {@code startedAt}, its first start.
     */
    void limitOnce(LocalJob job, Duration maxRunTime, Instant startedAt) {
        if (maxRunTime != null && !pending.containsKey(job)) {
            schedule(job, maxRunTime, maxRunTime.minus(startedAt == null ? Duration.ZERO
                    : Duration.between(startedAt, Instant.now())));
        }
    }

    private void schedule(LocalJob job, Duration maxRunTime, Duration within) {
        String message = "ran longer than max_run_time (%d s); its replicas were stopped"
                .formatted(maxRunTime.toSeconds());
        pending.put(job, timers.schedule(() -> {
            pending.remove(job);
            stop.accept(job.finish(JobPhase.FAILED, REASON, message));
        }, Math.max(0, within.toMillis()), TimeUnit.MILLISECONDS));
        if (job.phase().isFinished()) {
            ended(job); // it ended before its limit was set
        }
    }

    /** The job has ended: its limit no longer applies. */
    void ended(LocalJob job) {
        ScheduledFuture<?> limit = pending.remove(job);
        if (limit != null) {
            limit.cancel(false);
        }
    }
}
