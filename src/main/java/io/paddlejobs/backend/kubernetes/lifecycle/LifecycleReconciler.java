package io.paddlejobs.backend.kubernetes.lifecycle;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import io.paddlejobs.backend.kubernetes.cluster.ForeignObjectException;
import io.paddlejobs.backend.kubernetes.cluster.PlanRecovery;
import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.queue.ClusterEvents;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out {@link JobLifecycle} for every job the informers report: on every change of a
 * job's Jobs or pods, and at every resync, which retries what failed and lets time-based rules
 * (pending timeout, removal after the TTL) fire. It also catches up at start-up with jobs that
 * changed while no replica of this service ran. Any number of replicas may do this at once:
 * every action is idempotent.
 *
 * <p>A job pending for a reason its pods do not give is asked about once it is {@link ClusterEvents#SETTLE} old
 * (most jobs' pods start sooner, and the question is a list of the namespace's events), then again after
 * {@link ClusterEvents#MIN_INTERVAL}: the warning that explains it (a quota refusal) is written
 * after the first look, and often changes nothing the informers see. A running job with a
 * {@code stall_timeout} is looked at again every {@link io.paddlejobs.job.attempt.StallWatch#interval()}:
 * falling silent changes nothing the informers see either ({@link KubernetesStalls}).
 *
 * <p>Looks run on a few threads ({@value #THREADS}), one look per job at a time: a change told while its
 * job is being looked at is looked at once that look is done. So one slow API call (a list of events, a
 * restart's delete and create) holds up that job alone, never another job's release, restart or stall.
 * One timer thread only schedules later looks; it makes no call itself.
 */
public final class LifecycleReconciler implements Consumer<JobKey>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LifecycleReconciler.class);

    /** How soon a start that met a name still held by an earlier attempt is tried again. */
    private static final Duration RETRY = Duration.ofMillis(500);

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
    /** Looks at once: enough that a few slow API calls hold nobody else up, few enough for the API server's rate. */
    static final int THREADS = 4;

    private volatile boolean closed;
    private final ClusterCache cache;
    private final Workloads workloads;
    private final PlanRecovery plans;
    private final ClusterEvents events;
    private final KubernetesProperties settings;
    private final Restarts restarts;
    private final RestartBackoff backoff;
    private final KubernetesStalls stalls;
    private final Clock clock;
    /** Where a job's look stands; absent: none is queued or running. */
    private enum Look { QUEUED, RUNNING, AGAIN }

    /**
     * Each job's look: a burst of events for one job costs one look (or one more, told while it ran), and no
     * two threads look at one job at once.
     */
    private final Map<JobKey, Look> looks = new ConcurrentHashMap<>();
    /**
     * Keys with a later look scheduled, and when it is due: one at a time per job, however often it is
     * reconciled meanwhile, unless an earlier one is asked for (a stall look every second must not wait
     * behind the events look ten seconds away).
     */
    private final Map<JobKey, Long> lookingAgain = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor workers = workers();
    private final ScheduledThreadPoolExecutor timer = timer();

    public LifecycleReconciler(ClusterCache cache, Workloads workloads, PlanRecovery plans, ClusterEvents events,
                        KubernetesProperties settings, Restarts restarts, RestartBackoff backoff,
                        KubernetesStalls stalls, Clock clock) {
        this.cache = cache;
        this.workloads = workloads;
        this.plans = plans;
        this.events = events;
        this.settings = settings;
        this.restarts = restarts;
        this.backoff = backoff;
        this.stalls = stalls;
        this.clock = clock;
    }

    /** {@value #THREADS} threads, their queue unbounded: a look is small, and each job has at most one queued. */
    private static ThreadPoolExecutor workers() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "job-lifecycle-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        workers.allowCoreThreadTimeOut(true);
        return workers;
    }

    /** One thread that only hands looks due later to the workers; they are dropped at close, not waited for. */
    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "job-lifecycle-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return timer;
    }

    @Override
    public void accept(JobKey key) {
        // Queued unless one is queued already; one that runs looks again when done.
        boolean[] queue = {false};
        looks.compute(key, (k, look) -> {
            if (look == null) {
                queue[0] = true;
                return Look.QUEUED;
            }
            return look == Look.RUNNING ? Look.AGAIN : look;
        });
        if (queue[0]) {
            queue(key);
        }
    }

    private void queue(JobKey key) {
        try {
            workers.execute(() -> look(key));
        } catch (RejectedExecutionException closing) {
            looks.remove(key);
        }
    }

    /** One look at the job; another follows at once if a change was told meanwhile. */
    private void look(JobKey key) {
        looks.put(key, Look.RUNNING); // it was QUEUED, and stays so whatever is told until now
        try {
            reconcile(key);
        } finally {
            if (looks.computeIfPresent(key, (k, look) -> look == Look.AGAIN ? Look.QUEUED : null) != null) {
                queue(key);
            }
        }
    }

    void reconcile(JobKey key) {
        if (closed) {
            return;
        }
        var found = cache.findWithoutStandIns(key);
        if (found.isEmpty()) {
            events.forget(key);
            return;
        }
        try {
            ObservedJob job = found.get();
            JobPlan plan = plans.planOf(job.trainerJob());
            JobStatus status = JobStatusMapper.map(plan, job);
            Instant now = clock.instant();
            if (unexplainedPending(status)) {
                Duration young = ClusterEvents.tooYoungToAsk(status.createdAt(), now);
                if (!young.isNegative() && !young.isZero()) {
                    lookAgainLater(key, young);
                } else {
                    job = job.explainedBy(events.refresh(key, job));
                    status = JobStatusMapper.map(plan, job);
                    if (unexplainedPending(status)) {
                        lookAgainLater(key, ClusterEvents.MIN_INTERVAL);
                    }
                }
            }
            Optional<String> silence = stalls.silence(plan, job, status, now);
            if (stalls.changed(key, silence.isPresent())) {
                cache.told(key); // the status shows the warning, or no longer does
            }
            Optional<Duration> stallLook = KubernetesStalls.lookEvery(plan, job, status);
            status = KubernetesStalls.shown(plan, status, silence, now);
            for (JobLifecycle.Action action : JobLifecycle.next(plan, job, status, now, settings, backoff)) {
                apply(key, plan, job, action, now, job.queued());
            }
            if (job.attempts().waiting() && job.attempts().restartAt().isAfter(now)) {
                // Its next attempt is due then, whether or not anything the informers see changes.
                lookAgainLater(key, Duration.between(now, job.attempts().restartAt()));
            }
            stallLook.ifPresent(every -> lookAgainLater(key, every));
        } catch (ForeignObjectException e) {
            // An earlier attempt's object still holds the name, on its way out.
            log.debug("Job {}: {}; trying again", key, e.getMessage());
            lookAgainLater(key, RETRY);
        } catch (KubernetesClientException e) {
            log.warn("Could not move job {} on (will retry at the next resync): {}", key, e.toString());
        } catch (RuntimeException e) {
            log.debug("Not a job this service can act on: {}: {}", key, e.toString());
        }
    }

    private static boolean unexplainedPending(JobStatus status) {
        return status.phase() == JobPhase.PENDING
                && (status.reason() == null || PodStates.UNEXPLAINED.contains(status.reason()));
    }

    private void lookAgainLater(JobKey key, Duration delay) {
        long due = System.nanoTime() + Math.max(0, delay.toNanos());
        if (lookingAgain.merge(key, due, (pending, asked) -> pending - asked <= 0 ? pending : asked) != due) {
            return; // one as early is scheduled
        }
        try {
            // A later look this one replaced finds itself replaced and does nothing: this look asks again for what it still needs.
            timer.schedule(() -> {
                if (lookingAgain.remove(key, due)) {
                    accept(key);
                }
            }, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            lookingAgain.remove(key, due);
        }
    }

    private void apply(JobKey key, JobPlan plan, ObservedJob job, JobLifecycle.Action action, Instant now,
                       boolean queued) {
        if (job.jobSet()) {
            workloads.jobSets().apply(key, action, now, queued);
            return;
        }
        if (action instanceof JobLifecycle.Restart || action instanceof JobLifecycle.StartAttempt) {
            try {
                if (action instanceof JobLifecycle.Restart restart && restarts.restart(plan, job, restart.next())) {
                    plans.forget(key);
                    events.forget(key);
                } else if (action instanceof JobLifecycle.StartAttempt) {
                    restarts.startAttempt(plan, job);
                }
            } catch (Restarts.CannotRestartException e) {
                apply(key, plan, job, new JobLifecycle.Fail("RestartFailed", e.getMessage()), now, queued);
            }
        } else if (action instanceof JobLifecycle.ReleaseTrainers) {
            workloads.releaseTrainers(key);
            log.info("Every pserver of {} is ready; released its trainers", key);
        } else if (action instanceof JobLifecycle.Fail fail) {
            workloads.failTrainers(key, now, fail.reason(), fail.message(), queued);
            workloads.stopPservers(key, queued);
            if (job.gang()) {
                workloads.deletePodGroup(key);
            }
            log.info("Job {} failed: {}: {}", key, fail.reason(), fail.message());
        } else if (action instanceof JobLifecycle.StopTrainers) {
            workloads.stopTrainers(key, queued);
            if (job.gang()) {
                workloads.deletePodGroup(key);
            }
        } else if (action instanceof JobLifecycle.StopPservers) {
            workloads.stopPservers(key, queued);
            log.info("Job {} is over; stopped its pservers", key);
        } else if (action instanceof JobLifecycle.Remove) {
            workloads.delete(key);
            plans.forget(key);
            events.forget(key);
            log.info("Job {} ended more than {} s ago; removed it", key, settings.ttlSecondsAfterFinished());
        }
    }

    /**
     * Lets the look in progress finish (a restart is a delete and a create that belong together), skips
     * what is queued, then stops.
     */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
