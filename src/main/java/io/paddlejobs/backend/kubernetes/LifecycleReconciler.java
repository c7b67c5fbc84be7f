package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * <p>A job pending for a reason its pods do not give is looked at again after
 * {@link ClusterEvents#MIN_INTERVAL}: the warning that explains it (a quota refusal) is written
 * after the first look, and often changes nothing the informers see.
 */
final class LifecycleReconciler implements Consumer<JobKey>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LifecycleReconciler.class);

    private final ClusterCache cache;
    private final Workloads workloads;
    private final PlanRecovery plans;
    private final ClusterEvents events;
    private final KubernetesProperties settings;
    private final Clock clock;
    /** Keys waiting to be reconciled: a burst of events for one job costs one look. */
    private final Set<JobKey> queued = ConcurrentHashMap.newKeySet();
    /** Keys with a later look scheduled: one at a time per job, however often it is reconciled meanwhile. */
    private final Set<JobKey> lookingAgain = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "job-lifecycle");
        thread.setDaemon(true);
        return thread;
    });

    LifecycleReconciler(ClusterCache cache, Workloads workloads, PlanRecovery plans, ClusterEvents events,
                        KubernetesProperties settings, Clock clock) {
        this.cache = cache;
        this.workloads = workloads;
        this.plans = plans;
        this.events = events;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void accept(JobKey key) {
        if (queued.add(key) && !worker.isShutdown()) {
            try {
                worker.execute(() -> {
                    queued.remove(key);
                    reconcile(key);
                });
            } catch (RejectedExecutionException closing) {
                queued.remove(key);
            }
        }
    }

    void reconcile(JobKey key) {
        var found = cache.find(key);
        if (found.isEmpty()) {
            events.forget(key);
            return;
        }
        try {
            ObservedJob job = found.get();
            JobPlan plan = plans.planOf(job.trainerJob());
            JobStatus status = JobStatusMapper.map(plan, job);
            if (unexplainedPending(status)) {
                job = job.explainedBy(events.refresh(key, job));
                status = JobStatusMapper.map(plan, job);
                if (unexplainedPending(status)) {
                    lookAgainLater(key);
                }
            }
            Instant now = clock.instant();
            for (JobLifecycle.Action action : JobLifecycle.next(plan, job, status, now, settings)) {
                apply(key, action, now, job.queued());
            }
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

    private void lookAgainLater(JobKey key) {
        if (!lookingAgain.add(key)) {
            return;
        }
        try {
            worker.schedule(() -> {
                lookingAgain.remove(key);
                reconcile(key);
            }, ClusterEvents.MIN_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            lookingAgain.remove(key);
        }
    }

    private void apply(JobKey key, JobLifecycle.Action action, Instant now, boolean queued) {
        if (action instanceof JobLifecycle.ReleaseTrainers) {
            workloads.releaseTrainers(key);
            log.info("Every pserver of {} is ready; released its trainers", key);
        } else if (action instanceof JobLifecycle.Fail fail) {
            workloads.failTrainers(key, now, fail.reason(), fail.message(), queued);
            workloads.stopPservers(key, queued);
            log.info("Job {} failed: {}: {}", key, fail.reason(), fail.message());
        } else if (action instanceof JobLifecycle.StopTrainers) {
            workloads.stopTrainers(key, queued);
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

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
