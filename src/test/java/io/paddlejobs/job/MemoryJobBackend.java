package io.paddlejobs.job;

import io.paddlejobs.backend.JobChanges;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A backend that runs nothing: jobs stay Pending until a test finishes them, and it counts how
 * often the namespace is listed, for the job service's tests of admission. It lists oldest first,
 * the reverse of the service's order, so that a service that left the order to it would show. It
 * tells its listeners of every change, as every backend does.
 */
final class MemoryJobBackend implements JobBackend {

    final AtomicInteger lists = new AtomicInteger();
    private final Map<JobKey, Job> jobs = new ConcurrentHashMap<>();
    private final JobChanges changes = new JobChanges();
    private volatile RuntimeException refusal;

    @Override
    public Site site() {
        return new Site() {
            @Override
            public String host(String namespace, String job, Role role, int index) {
                return "127.0.0.1";
            }

            @Override
            public String dataPath(String namespace, String job) {
                return "/data";
            }
        };
    }

    /** Every submit from now on throws this, as a cluster that refuses the job would. */
    void refuseSubmits(RuntimeException refusal) {
        this.refusal = refusal;
    }

    @Override
    public Job submit(JobPlan plan) {
        if (refusal != null) {
            throw refusal;
        }
        Job job = new Job(plan, status(JobPhase.PENDING));
        if (jobs.putIfAbsent(job.key(), job) != null) {
            throw new JobAlreadyExistsException(job.key());
        }
        changed(job.key());
        return job;
    }

    /** A job as a backend would have recovered it after a restart. */
    void recovered(JobPlan plan, JobPhase phase) {
        Job job = new Job(plan, status(phase));
        jobs.put(job.key(), job);
        changed(job.key());
    }

    /** A pending job created at the given time. */
    void createdAt(JobPlan plan, Instant createdAt) {
        RoleCounts none = new RoleCounts(0, 0, 0, 0, 0);
        Job job = new Job(plan, new JobStatus(JobPhase.PENDING, null, null, createdAt, null, null, null, none, none,
                List.of()));
        jobs.put(job.key(), job);
        changed(job.key());
    }

    void finish(JobKey key, JobPhase phase) {
        if (jobs.computeIfPresent(key, (k, job) -> new Job(job.plan(), status(phase))) != null) {
            changed(key);
        }
    }

    @Override
    public void onChange(Consumer<JobKey> listener) {
        changes.add(listener, jobs.keySet());
    }

    private void changed(JobKey key) {
        changes.accept(key);
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return Optional.ofNullable(jobs.get(key));
    }

    @Override
    public List<Job> list(String namespace) {
        lists.incrementAndGet();
        return jobs.values().stream().filter(job -> job.key().namespace().equals(namespace))
                .sorted(Comparator.comparing((Job job) -> job.status().createdAt(), Comparator.nullsFirst(Comparator.naturalOrder())))
                .toList();
    }

    @Override
    public Optional<Job> cancel(JobKey key) {
        finish(key, JobPhase.CANCELLED);
        return find(key);
    }

    @Override
    public boolean delete(JobKey key) {
        if (jobs.remove(key) == null) {
            return false;
        }
        changed(key);
        return true;
    }

    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out) {
        return false;
    }

    private static JobStatus status(JobPhase phase) {
        RoleCounts none = new RoleCounts(0, 0, 0, 0, 0);
        return new JobStatus(phase, null, null, Instant.now(), null, phase.isFinished() ? Instant.now() : null,
                null, none, none, List.of());
    }
}
