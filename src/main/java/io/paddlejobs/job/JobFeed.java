package io.paddlejobs.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells watchers of a job, or of a namespace, when a job's status changed, or the job went. One
 * thread serves every watcher. Every backend says which jobs may have changed ({@link
 * JobBackend#onChange}: local, each change; Kubernetes, each informer event; Slurm, each change
 * its poller saw), and a watched one is looked at once it says so: a change costs one look however
 * many watch it, and a quiet watcher costs nothing. Watchers are called on a shared pool, each in
 * order and one call at a time ({@link SerialWatcher}), at most {@code sendersPerUser} of one
 * caller's at once ({@link SenderLane}): clients of one tenant that stopped reading delay only that
 * tenant's other streams, and each is dropped once a send has taken {@code sendTimeout}.
 */
public final class JobFeed implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JobFeed.class);

    private final JobService jobs;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread feed = new Thread(task, "job-feed");
        feed.setDaemon(true);
        return feed;
    });
    /**
     * Threads only while a watcher's call runs: a few when sends are quick, one per client that
     * stopped reading until its send times out; the lanes bound how many of one caller's, and
     * {@code maxSenders} all of them. A call past that waits in its lane for a thread to come back.
     */
    private final ThreadPoolExecutor callers;
    private final Map<String, SenderLane> lanes = new ConcurrentHashMap<>();
    private final int sendersPerUser;
    private final Duration sendTimeout;
    // Only the feed's thread touches these.
    private final Map<JobKey, List<JobWatcher>> jobWatchers = new HashMap<>();
    private final Map<String, List<JobWatcher>> namespaceWatchers = new HashMap<>();
    private final LastToldStatuses told = new LastToldStatuses();
    private final Map<JobWatcher, SerialWatcher> serial = new IdentityHashMap<>();

    /**
     * @param maxSenders     calls of watchers that may run at once in all: as many as watchers may be open
     *                       (each runs one call at a time), so that none ever waits for a thread behind stuck ones
     * @param sendersPerUser calls of one caller's watchers that may run at once
     * @param sendTimeout    how long one call may run before its watcher is dropped
     */
    public JobFeed(JobService jobs, int maxSenders, int sendersPerUser, Duration sendTimeout) {
        this.jobs = jobs;
        this.sendersPerUser = sendersPerUser;
        this.sendTimeout = sendTimeout;
        this.callers = new ThreadPoolExecutor(0, maxSenders, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            Thread caller = new Thread(task, "job-feed-call");
            caller.setDaemon(true);
            return caller;
        });
        jobs.onChange(new ChangedKeys(thread, keys -> keys.stream().filter(this::watched)
                .forEach(key -> look(key, jobs.find(key).orElse(null)))));
        thread.scheduleWithFixedDelay(guarded(() -> {
            List.copyOf(serial.values()).forEach(watcher -> watcher.abandonIfStalled(sendTimeout));
            everyWatcher().forEach(JobWatcher::everySecond);
            lanes.values().forEach(SenderLane::retry);
            forgetIdleLanes();
        }), 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Starts with the job as it is now (null if there is none), then each change.
     *
     * @param user whose share of the senders the watcher's calls use
     */
    public void watchJob(JobKey key, JobWatcher watcher, String user) {
        thread.execute(() -> {
            Job now = jobs.find(key).orElse(null);
            told.told(key, now == null ? null : now.status());
            JobWatcher queued = serial.computeIfAbsent(watcher, w -> new SerialWatcher(w, lane(user)));
            jobWatchers.computeIfAbsent(key, k -> new ArrayList<>()).add(queued);
            queued.changed(key, now);
        });
    }

    /** Each change of the namespace's jobs from now on, on the senders' share of {@code user}. */
    public void watchNamespace(String namespace, JobWatcher watcher, String user) {
        thread.execute(() -> {
            if (!namespaceWatchers.containsKey(namespace)) {
                allOf(namespace).forEach(job -> told.toldIfNew(job.key(), job.status()));
            }
            namespaceWatchers.computeIfAbsent(namespace, ns -> new ArrayList<>())
                    .add(serial.computeIfAbsent(watcher, w -> new SerialWatcher(w, lane(user))));
        });
    }

    private SenderLane lane(String user) {
        return lanes.computeIfAbsent(user, u -> new SenderLane(callers, sendersPerUser));
    }

    /**
     * A caller's lane goes once none of its watchers is left and nothing of it runs or waits, so that the lanes
     * are those of the callers watching now, not of every one ever seen; a watcher made later gets a new one.
     */
    private void forgetIdleLanes() {
        Set<Object> inUse = Collections.newSetFromMap(new IdentityHashMap<>());
        serial.values().forEach(watcher -> inUse.add(watcher.lane()));
        lanes.values().removeIf(lane -> !inUse.contains(lane) && lane.idle());
    }

    /** How many callers' lanes are kept. */
    int lanes() {
        return lanes.size();
    }

    public void unwatchJob(JobKey key, JobWatcher watcher) {
        thread.execute(() -> {
            remove(jobWatchers, key, serial.remove(watcher));
            if (!jobWatchers.containsKey(key) && !namespaceWatchers.containsKey(key.namespace())) {
                told.forget(key);
            }
        });
    }

    public void unwatchNamespace(String namespace, JobWatcher watcher) {
        thread.execute(() -> {
            remove(namespaceWatchers, namespace, serial.remove(watcher));
            if (!namespaceWatchers.containsKey(namespace)) {
                told.keepOnly(namespace, name -> jobWatchers.containsKey(new JobKey(namespace, name)));
            }
        });
    }

    /** A failed tick is logged and the next one runs: an escaping exception would end the schedule. */
    private static Runnable guarded(Runnable tick) {
        return () -> {
            try {
                tick.run();
            } catch (RuntimeException e) {
                log.warn("Could not tell the watchers of jobs what changed: {}", e.toString());
            }
        };
    }

    private void look(JobKey key, Job now) {
        JobStatus status = now == null ? null : now.status();
        if (Objects.equals(told.of(key), status)) {
            return;
        }
        told.told(key, status);
        for (JobWatcher watcher : List.copyOf(jobWatchers.getOrDefault(key, List.of()))) {
            watcher.changed(key, now);
        }
        for (JobWatcher watcher : List.copyOf(namespaceWatchers.getOrDefault(key.namespace(), List.of()))) {
            watcher.changed(key, now);
        }
    }

    private boolean watched(JobKey key) {
        return jobWatchers.containsKey(key) || namespaceWatchers.containsKey(key.namespace());
    }

    private List<Job> allOf(String namespace) {
        return jobs.list(new JobQuery(namespace, null, Map.of(), Integer.MAX_VALUE, null)).items();
    }

    private List<JobWatcher> everyWatcher() {
        List<JobWatcher> all = new ArrayList<>();
        jobWatchers.values().forEach(all::addAll);
        namespaceWatchers.values().forEach(all::addAll);
        return all;
    }

    private static <K> void remove(Map<K, List<JobWatcher>> watchers, K key, JobWatcher watcher) {
        List<JobWatcher> list = watchers.get(key);
        if (list != null && list.remove(watcher) && list.isEmpty()) {
            watchers.remove(key);
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.execute(() -> everyWatcher().forEach(JobWatcher::closed));
        thread.shutdown();
        thread.awaitTermination(2, TimeUnit.SECONDS);
        callers.shutdown();
        callers.awaitTermination(2, TimeUnit.SECONDS);
    }
}
