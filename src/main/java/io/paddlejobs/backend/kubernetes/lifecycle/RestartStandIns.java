package io.paddlejobs.backend.kubernetes.lifecycle;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The trainer Jobs of jobs being restarted, each shown in its own place until the next attempt's trainer
 * Job of the same name reaches the cache. {@link Restarts#restart} deletes the failed attempt's trainer
 * Job, frees its other names, then creates the next one: in between the informer holds no trainer Job of
 * the job, and without a stand-in a read would answer 404 for a job that is running (restarting).
 *
 * <p>A stand-in goes as soon as the cache holds another trainer Job of its name (the next attempt's), when
 * the job is deleted, or after {@link #LONGEST} (a create that failed, which the reconciler reports).
 * Only the replica of the service that restarts the job holds its stand-in.
 */
public final class RestartStandIns {

    /** Far longer than a delete and a create take; short enough that a lost create is not hidden long. */
    static final Duration LONGEST = Duration.ofMinutes(1);

    private record StandIn(Job job, long untilNanos) {
    }

    private final Map<String, StandIn> byStoreKey = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    public RestartStandIns() {
        this(System::nanoTime);
    }

    public RestartStandIns(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Shows {@code failed} (a trainer Job about to be deleted for a restart) until its successor is cached. */
    public void standIn(Job failed) {
        byStoreKey.put(storeKey(failed), new StandIn(failed, nanoTime.getAsLong() + LONGEST.toNanos()));
    }

    /** The job is gone for good (deleted), or its restart was not made: show nothing in its place. */
    public void forget(String namespace, String trainerJobName) {
        byStoreKey.remove(namespace + "/" + trainerJobName);
    }

    /**
     * What to show for a trainer Job's store key: the cached Job when there is one, else the stand-in while
     * its restart is under way; {@code null} when neither.
     */
    public Job orStandIn(String storeKey, Job cached) {
        if (!waitsForSuccessor(storeKey, cached)) {
            return cached;
        }
        // With the failed Job still cached, its delete has not reached the cache yet: it shows itself.
        return cached != null ? cached : byStoreKey.get(storeKey).job();
    }

    /**
     * Whether the store key's restart is under way: a stand-in was made, and the cache holds the failed Job
     * or nothing ({@code cached}), not yet the next attempt's. A stand-in that is done with goes.
     */
    public boolean waitsForSuccessor(String storeKey, Job cached) {
        StandIn standIn = byStoreKey.get(storeKey);
        if (standIn == null) {
            return false;
        }
        boolean replaced = cached != null && !sameObject(cached, standIn.job());
        if (replaced || nanoTime.getAsLong() - standIn.untilNanos() > 0) {
            byStoreKey.remove(storeKey, standIn);
            return false;
        }
        return true;
    }

    /** The store keys of the namespace's stand-ins, for a list to add those the cache no longer holds. */
    public List<String> keysIn(String namespace) {
        String prefix = namespace + "/";
        return byStoreKey.keySet().stream().filter(key -> key.startsWith(prefix)).toList();
    }

    private static boolean sameObject(Job a, Job b) {
        return Objects.equals(a.getMetadata().getUid(), b.getMetadata().getUid());
    }

    static String storeKey(Job job) {
        return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }
}
