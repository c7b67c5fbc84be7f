package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.job.JobKey;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scales a job's pservers to zero once the job is over. It reacts to informer events, so it
 * also catches up at start-up with jobs that ended while no replica of this service ran, and
 * the informers' resync retries what failed. The scale-down is an idempotent patch: any number
 * of replicas of this service may do it at once.
 */
final class PserverReconciler implements Consumer<JobKey>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PserverReconciler.class);

    private final ClusterCache cache;
    private final Workloads workloads;
    /** Keys waiting to be reconciled: a burst of events for one job costs one look. */
    private final Set<JobKey> queued = ConcurrentHashMap.newKeySet();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "pserver-reconciler");
        thread.setDaemon(true);
        return thread;
    });

    PserverReconciler(ClusterCache cache, Workloads workloads) {
        this.cache = cache;
        this.workloads = workloads;
    }

    @Override
    public void accept(JobKey key) {
        if (queued.add(key)) {
            worker.execute(() -> {
                queued.remove(key);
                reconcile(key);
            });
        }
    }

    void reconcile(JobKey key) {
        cache.find(key).filter(PserverReconciler::needsScaleDown).ifPresent(job -> {
            try {
                workloads.scalePserversToZero(key);
                log.info("Job {} is over; scaled its pservers to zero", key);
            } catch (KubernetesClientException e) {
                log.warn("Could not scale down the pservers of {} (will retry at the next resync): {}", key, e.toString());
            }
        });
    }

    static boolean needsScaleDown(ObservedJob job) {
        var set = job.pserverSet();
        return JobStatusMapper.isOver(job) && set != null && set.getSpec() != null
                && set.getSpec().getReplicas() != null && set.getSpec().getReplicas() > 0;
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
