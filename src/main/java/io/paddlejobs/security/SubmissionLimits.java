package io.paddlejobs.security;

import io.paddlejobs.job.JobService;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The caller's limits on submitting: submissions per minute (per user) and unfinished jobs (in the
 * namespace submitted into; jobs do not record who submitted them). Dry runs count against the rate;
 * refused submits and identical retries do not.
 */
@Component
public class SubmissionLimits {

    private final JobService jobs;
    private final SubmissionRate rate;
    // Counting and submitting under one lock per namespace, so that two submits racing for the last
    // free place cannot both get it.
    private final Map<String, ReentrantLock> namespaceLocks = new ConcurrentHashMap<>();

    @Autowired
    SubmissionLimits(JobService jobs) {
        this(jobs, Clock.systemUTC());
    }

    SubmissionLimits(JobService jobs, Clock clock) {
        this.jobs = jobs;
        this.rate = new SubmissionRate(clock);
    }

    /**
     * Runs the submit if the tenant is within its limits; a 429 problem if not.
     *
     * @param gpus the GPUs the job to submit asks for, worked out only where a GPU limit applies
     */
    public <T> T submit(Tenant tenant, String namespace, IntSupplier gpus, Supplier<T> submit) {
        return submit(tenant, namespace, gpus, submit, result -> true);
    }

    /**
     * As {@link #submit(Tenant, String, IntSupplier, Supplier)}; a submit that is refused, or that
     * {@code created} says made nothing new (an identical retry), does not use up the rate.
     */
    public <T> T submit(Tenant tenant, String namespace, IntSupplier gpus, Supplier<T> submit, Predicate<T> created) {
        int perMinute = tenant.limits().submissionsPerMinute();
        takeRate(tenant);
        T result;
        try {
            result = limited(namespace, tenant, gpus, submit);
        } catch (RuntimeException refused) {
            rate.giveBack(tenant.user(), perMinute);
            throw refused;
        }
        if (!created.test(result)) {
            rate.giveBack(tenant.user(), perMinute);
        }
        return result;
    }

    /** A dry run plans as much as a submit does, so it counts against the same rate. */
    public <T> T dryRun(Tenant tenant, Supplier<T> plan) {
        takeRate(tenant);
        try {
            return plan.get();
        } catch (RuntimeException refused) {
            rate.giveBack(tenant.user(), tenant.limits().submissionsPerMinute());
            throw refused;
        }
    }

    private void takeRate(Tenant tenant) {
        int perMinute = tenant.limits().submissionsPerMinute();
        rate.take(tenant.user(), perMinute).ifPresent(wait -> {
            throw LimitExceededProblem.rate(tenant.user(), perMinute, wait);
        });
    }

    private <T> T limited(String namespace, Tenant tenant, IntSupplier gpus, Supplier<T> submit) {
        int maxUnfinished = tenant.limits().maxUnfinishedJobs();
        int maxGpus = tenant.limits().maxGpusInUse();
        if (maxUnfinished <= 0 && maxGpus <= 0) {
            return submit.get();
        }
        ReentrantLock lock = namespaceLocks.computeIfAbsent(namespace, ns -> new ReentrantLock());
        lock.lock();
        try {
            if (maxUnfinished > 0 && jobs.unfinishedJobs(namespace) >= maxUnfinished) {
                throw LimitExceededProblem.unfinishedJobs(namespace, maxUnfinished);
            }
            int asked = maxGpus > 0 ? gpus.getAsInt() : 0;
            long inUse = asked > 0 ? jobs.gpusInUse(namespace) : 0;
            if (asked > 0 && inUse + asked > maxGpus) {
                throw LimitExceededProblem.gpusInUse(namespace, maxGpus, inUse, asked);
            }
            return submit.get();
        } finally {
            lock.unlock();
        }
    }
}
