package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.JobStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tells watchers of a job, or of a namespace, when a job's status changed, or the job went. One
 * thread serves every watcher: it looks every {@link #TICK} at the jobs the backend said may have
 * changed (Kubernetes: every informer event), or, for a backend that cannot say, at every watched
 * job. So a change costs one look however many watch it, and a quiet watcher costs no thread.
 * Watchers are called on that thread, and must not block for long.
 */
@Component
class JobFeed implements AutoCloseable {

    static final Duration TICK = Duration.ofMillis(50);
    private static final int TICKS_A_SECOND = (int) (1000 / TICK.toMillis());
    private static final Logger log = LoggerFactory.getLogger(JobFeed.class);

    /** Called on the feed's thread. */
    interface Watcher {

        /** @param job as it is now; null when it was deleted */
        void changed(JobKey key, Job job);

        /** Once a second: for what is read rather than pushed (metrics), and keep-alives. */
        default void everySecond() {
        }

        /** The service stops. */
        void closed();
    }

    private final JobService jobs;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread feed = new Thread(task, "job-feed");
        feed.setDaemon(true);
        return feed;
    });
    private final boolean pushed;
    private final Set<JobKey> maybeChanged = ConcurrentHashMap.newKeySet();
    // Only the feed's thread touches these.
    private final Map<JobKey, List<Watcher>> jobWatchers = new HashMap<>();
    private final Map<String, List<Watcher>> namespaceWatchers = new HashMap<>();
    private final Map<String, Map<String, JobStatus>> seen = new HashMap<>();
    private long ticks;

    JobFeed(JobService jobs) {
        this.jobs = jobs;
        this.pushed = jobs.onChange(key -> {
            if (!thread.isShutdown()) {
                maybeChanged.add(key);
            }
        });
        thread.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts with the job as it is now (null if there is none), then each change. */
    void watchJob(JobKey key, Watcher watcher) {
        thread.execute(() -> {
            Job now = jobs.find(key).orElse(null);
            remember(key, now == null ? null : now.status());
            jobWatchers.computeIfAbsent(key, k -> new ArrayList<>()).add(watcher);
            watcher.changed(key, now);
        });
    }

    /** Each change of the namespace's jobs from now on. */
    void watchNamespace(String namespace, Watcher watcher) {
        thread.execute(() -> {
            if (!namespaceWatchers.containsKey(namespace)) {
                Map<String, JobStatus> known = seen.computeIfAbsent(namespace, ns -> new HashMap<>());
                allOf(namespace).forEach(job -> known.putIfAbsent(job.plan().name(), job.status()));
            }
            namespaceWatchers.computeIfAbsent(namespace, ns -> new ArrayList<>()).add(watcher);
        });
    }

    void unwatchJob(JobKey key, Watcher watcher) {
        thread.execute(() -> {
            remove(jobWatchers, key, watcher);
            if (!jobWatchers.containsKey(key) && !namespaceWatchers.containsKey(key.namespace())) {
                forget(key.namespace(), key.name());
            }
        });
    }

    void unwatchNamespace(String namespace, Watcher watcher) {
        thread.execute(() -> {
            remove(namespaceWatchers, namespace, watcher);
            if (!namespaceWatchers.containsKey(namespace)) {
                Map<String, JobStatus> known = seen.getOrDefault(namespace, Map.of());
                known.keySet().removeIf(name -> !jobWatchers.containsKey(new JobKey(namespace, name)));
                if (known.isEmpty()) {
                    seen.remove(namespace);
                }
            }
        });
    }

    private void tick() {
        try {
            if (pushed) {
                List<JobKey> keys = new ArrayList<>(maybeChanged);
                maybeChanged.removeAll(keys);
                keys.stream().filter(this::watched).forEach(key -> look(key, jobs.find(key).orElse(null)));
            } else {
                lookAtEveryWatchedJob();
            }
            if (++ticks % TICKS_A_SECOND == 0) {
                everyWatcher().forEach(Watcher::everySecond);
            }
        } catch (RuntimeException e) {
            log.warn("Could not tell the watchers of jobs what changed: {}", e.toString()); // and try again next tick
        }
    }

    private void lookAtEveryWatchedJob() {
        for (String namespace : List.copyOf(namespaceWatchers.keySet())) {
            Set<String> gone = new HashSet<>(seen.getOrDefault(namespace, Map.of()).keySet());
            for (Job job : allOf(namespace)) {
                gone.remove(job.plan().name());
                look(job.key(), job);
            }
            gone.forEach(name -> look(new JobKey(namespace, name), null));
        }
        for (JobKey key : List.copyOf(jobWatchers.keySet())) {
            if (!namespaceWatchers.containsKey(key.namespace())) {
                look(key, jobs.find(key).orElse(null));
            }
        }
    }

    private void look(JobKey key, Job now) {
        JobStatus before = seen.getOrDefault(key.namespace(), Map.of()).get(key.name());
        JobStatus status = now == null ? null : now.status();
        if (Objects.equals(before, status)) {
            return;
        }
        remember(key, status);
        for (Watcher watcher : List.copyOf(jobWatchers.getOrDefault(key, List.of()))) {
            watcher.changed(key, now);
        }
        for (Watcher watcher : List.copyOf(namespaceWatchers.getOrDefault(key.namespace(), List.of()))) {
            watcher.changed(key, now);
        }
    }

    private void remember(JobKey key, JobStatus status) {
        if (status == null) {
            forget(key.namespace(), key.name());
        } else {
            seen.computeIfAbsent(key.namespace(), ns -> new HashMap<>()).put(key.name(), status);
        }
    }

    private void forget(String namespace, String name) {
        Map<String, JobStatus> known = seen.get(namespace);
        if (known != null) {
            known.remove(name);
            if (known.isEmpty()) {
                seen.remove(namespace);
            }
        }
    }

    private boolean watched(JobKey key) {
        return jobWatchers.containsKey(key) || namespaceWatchers.containsKey(key.namespace());
    }

    private List<Job> allOf(String namespace) {
        return jobs.list(new JobQuery(namespace, null, Map.of(), Integer.MAX_VALUE, null)).items();
    }

    private List<Watcher> everyWatcher() {
        List<Watcher> all = new ArrayList<>();
        jobWatchers.values().forEach(all::addAll);
        namespaceWatchers.values().forEach(all::addAll);
        return all;
    }

    private static <K> void remove(Map<K, List<Watcher>> watchers, K key, Watcher watcher) {
        List<Watcher> list = watchers.get(key);
        if (list != null && list.remove(watcher) && list.isEmpty()) {
            watchers.remove(key);
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.execute(() -> everyWatcher().forEach(Watcher::closed));
        thread.shutdown();
        thread.awaitTermination(2, TimeUnit.SECONDS);
    }
}
