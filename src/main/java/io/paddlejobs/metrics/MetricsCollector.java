package io.paddlejobs.metrics;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * Collects the metrics jobs report: one {@link TrainerFollower} per trainer reads its output from
 * the moment the job is submitted (or, for a job the service has not watched, such as one from
 * before a restart, from the first time its metrics are asked for). Points are kept in memory
 * within {@link MetricsProperties}; a job's go when it is deleted.
 */
public final class MetricsCollector implements AutoCloseable {

    private final JobBackend jobs;
    private final MetricsProperties limits;
    private final Clock clock;
    private static final Duration PENDING_CHECK = Duration.ofMillis(500);

    private final SimpleAsyncTaskExecutor followers = new SimpleAsyncTaskExecutor("metrics-");
    private final ScheduledExecutorService waiting = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "metrics-waiting");
        thread.setDaemon(true);
        return thread;
    });
    // Access order: the eldest is the least recently read, the first to go when too many are kept.
    private final Map<JobKey, Watched> watched = new LinkedHashMap<>(16, 0.75f, true);

    private record Watched(JobMetrics metrics, AtomicInteger following) {
    }

    public MetricsCollector(JobBackend jobs, MetricsProperties limits, Clock clock) {
        this.jobs = jobs;
        this.limits = limits;
        this.clock = clock;
        // A follower mostly waits on a log: cheap as a virtual thread where the JDK has them.
        followers.setVirtualThreads(Runtime.version().feature() >= 21);
        followers.setDaemon(true);
        followers.setTaskTerminationTimeout(1000);
    }

    /** Starts reading the job's trainers' output, unless that is already under way. */
    public void watch(Job job) {
        metricsOf(job);
    }

    /** What the job reported after {@code since} (0: everything kept). */
    public MetricsSnapshot read(Job job, long since) {
        return metricsOf(job).since(since);
    }

    private JobMetrics metricsOf(Job job) {
        JobKey key = job.key();
        Watched started;
        int trainers;
        synchronized (watched) {
            Watched existing = watched.get(key);
            if (existing != null && Objects.equals(existing.metrics().jobCreatedAt(), job.status().createdAt())) {
                return existing.metrics();
            }
            trainers = Math.min(job.plan().trainers().count(), limits.trainersFollowed());
            started = new Watched(new JobMetrics(limits, job.status().createdAt()), new AtomicInteger(trainers));
            watched.put(key, started);
            dropFinishedBeyondLimit();
        }
        for (int index = 0; index < trainers; index++) {
            follow(new TrainerFollower(jobs, key, index, started.metrics(), limits.retryInterval(),
                    clock, () -> forget(key, started)), started);
        }
        return started.metrics();
    }

    // A follower takes a thread for as long as its trainer runs; one whose trainer has not started
    // (a job queued behind others, a pod being scheduled) waits here instead, so that a thousand
    // queued jobs cost a few look-ups a second rather than a thousand threads.
    private void follow(TrainerFollower follower, Watched started) {
        if (follower.trainerPending()) {
            waiting.schedule(() -> follow(follower, started), PENDING_CHECK.toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        followers.execute(() -> {
            try {
                follower.run();
            } finally {
                started.following().decrementAndGet();
            }
        });
    }

    private void forget(JobKey key, Watched which) {
        synchronized (watched) {
            watched.remove(key, which);
        }
    }

    // Jobs still being followed stay whatever the limit: they are few (running jobs), and their
    // followers would keep filling them anyway.
    private void dropFinishedBeyondLimit() {
        Iterator<Watched> eldestFirst = watched.values().iterator();
        int excess = watched.size() - limits.jobsKept();
        while (excess > 0 && eldestFirst.hasNext()) {
            if (eldestFirst.next().following().get() == 0) {
                eldestFirst.remove();
                excess--;
            }
        }
    }

    @Override
    public void close() {
        waiting.shutdownNow();
        followers.close();
    }
}
