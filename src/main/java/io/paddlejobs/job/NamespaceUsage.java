package io.paddlejobs.job;

import io.paddlejobs.planning.JobPlan;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What each namespace's unfinished jobs hold, for admitting a submit against a {@link Quota}
 * without listing every job the namespace ever had. It keeps the names of the jobs submitted
 * through it (and, the first time a namespace is counted, those the backend already holds: after a
 * restart, its recovered jobs) and asks the backend, from memory, how each of them stands. A job
 * that finished, was cancelled or deleted is forgotten then; since a finished job never runs
 * again, the names kept are all that can be unfinished, and a count costs a look-up per
 * unfinished job. Jobs created behind the service's back (another replica of it, kubectl) are
 * seen only from the next restart, unless the backend shares its usage ({@link SharedUsage}): then
 * the count and the claim are the backend's, made in the store every replica shares.
 */
final class NamespaceUsage {

    private static final class Tracked {
        // Counting and creating under one lock, so that two submits racing for the last free place
        // cannot both get it.
        final ReentrantLock lock = new ReentrantLock();
        final Set<String> names = ConcurrentHashMap.newKeySet();
        boolean seeded; // guarded by lock
    }

    private final JobBackend backend;
    private final Map<String, Tracked> namespaces = new ConcurrentHashMap<>();

    NamespaceUsage(JobBackend backend) {
        this.backend = backend;
    }

    /**
     * Runs {@code create} if the planned job fits the namespace's quota, else throws
     * {@link QuotaExceededException}; {@code create} returns the job it made or found.
     */
    JobService.Submission admit(JobPlan plan, Quota quota, Supplier<JobService.Submission> create) {
        Tracked tracked = tracked(plan.namespace());
        if (!quota.limitsAnything()) {
            return counted(tracked, create.get()); // nothing to count: submits into the namespace run side by side
        }
        tracked.lock.lock();
        try {
            Optional<SharedUsage> shared = backend.sharedUsage();
            if (shared.isEmpty()) {
                requireFits(plan, quota, usage(plan.namespace(), tracked));
                return counted(tracked, create.get());
            }
            // Within this replica submits still take turns, so that its own claims never race each other.
            shared.get().claim(plan, usage -> requireFits(plan, quota, usage));
            try {
                return create.get();
            } catch (RuntimeException e) {
                shared.get().release(new JobKey(plan.namespace(), plan.name()));
                throw e;
            }
        } finally {
            tracked.lock.unlock();
        }
    }

    private static void requireFits(JobPlan plan, Quota quota, QuotaUsage usage) {
        if (quota.maxUnfinishedJobs() > 0 && usage.unfinishedJobs() >= quota.maxUnfinishedJobs()) {
            throw QuotaExceededException.unfinishedJobs(plan.namespace(), quota.maxUnfinishedJobs());
        }
        int asked = plan.totals().gpu();
        if (quota.maxGpusInUse() > 0 && asked > 0 && usage.gpusInUse() + asked > quota.maxGpusInUse()) {
            throw QuotaExceededException.gpusInUse(plan.namespace(), quota.maxGpusInUse(), usage.gpusInUse(), asked);
        }
    }

    private Tracked tracked(String namespace) {
        return namespaces.computeIfAbsent(namespace, ns -> new Tracked());
    }

    private static JobService.Submission counted(Tracked tracked, JobService.Submission submission) {
        // Under the lock (reentrant when admitting), so that a count never forgets a name just added.
        // Until a namespace is first counted there is nothing to keep: counting starts from the backend's list.
        tracked.lock.lock();
        try {
            if (tracked.seeded) {
                tracked.names.add(submission.job().plan().name());
            }
        } finally {
            tracked.lock.unlock();
        }
        return submission;
    }

    private QuotaUsage usage(String namespace, Tracked tracked) {
        if (!tracked.seeded) {
            backend.list(namespace).stream().filter(NamespaceUsage::unfinished)
                    .forEach(found -> tracked.names.add(found.plan().name()));
            tracked.seeded = true;
        }
        int jobs = 0;
        long gpus = 0;
        for (String name : tracked.names) {
            Optional<Job> found = backend.find(new JobKey(namespace, name)).filter(NamespaceUsage::unfinished);
            if (found.isEmpty()) {
                tracked.names.remove(name); // finished, cancelled or deleted: for good
                continue;
            }
            jobs++;
            gpus += found.get().plan().totals().gpu();
        }
        return new QuotaUsage(jobs, gpus);
    }

    private static boolean unfinished(Job job) {
        return !job.status().phase().isFinished();
    }
}
