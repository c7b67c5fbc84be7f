package io.paddlejobs.metrics;

import io.paddlejobs.job.ChangedKeys;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.Progress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * Collects the metrics jobs report: one {@link TrainerFollower} per trainer reads its output. Every
 * unfinished job is followed from the moment the backend tells of it ({@link JobBackend#onChange}),
 * however it came to be (a submit, a job read back at start-up, a restart); a finished one the
 * service has not followed, from the first time its metrics are asked for. A trainer that has not
 * started (a job queued behind others, a pod being scheduled) holds no thread: its follower starts
 * at the first change that shows it started. Points are kept in memory within
 * {@link MetricsProperties}; a job's go when it is deleted. Once every trainer of a finished job
 * ended, its metrics go to the {@link MetricsArchive}, which answers for the job once the backend
 * forgot it; a job that finished while the service was away is read once to be archived.
 */
public final class MetricsCollector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricsCollector.class);

    private final JobBackend jobs;
    /**
     * How soon a trainer's log is tried again when it is not there yet (a pod not started): soon enough that a
     * chart starts within seconds of the trainer, seldom enough that waiting followers cost the API server nothing.
     */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(2);

    /**
     * How long after a job's end its metrics are taken as complete whatever is still being read. Its followers see
     * the end within {@link #RETRY_INTERVAL} and read what is left in well under a second; a trainer's log stream
     * still open by then is one its backend keeps open past the container's end (kwok does), whose lines came as
     * they were written; and the replica that ran a job has kept its metrics in the shared history by then.
     */
    static final Duration SETTLED_AFTER = Duration.ofSeconds(10);

    private final MetricsProperties limits;
    private final Duration retryInterval;
    private final Clock clock;
    private final MetricsArchive archive;

    private final SimpleAsyncTaskExecutor followers = new SimpleAsyncTaskExecutor("metrics-");
    private final ExecutorService changes = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "metrics-changes");
        thread.setDaemon(true);
        return thread;
    });
    // Access order: the eldest is the least recently read, the first to go when too many are kept.
    private final Map<JobKey, Watched> watched = new LinkedHashMap<>(16, 0.75f, true);
    // Finished jobs whose metrics the archive has, with their settled progress (empty: none reported): an
    // informer's resync tells of them again and again, and each would otherwise cost a read of the archive;
    // and after a restart of the service they are what a list shows as their progress, with no read at all.
    // Forgotten with the job.
    private final Map<JobKey, Optional<Progress>> archived = new ConcurrentHashMap<>();

    /** @param waiting followers whose trainer had not started when last looked at */
    private record Watched(JobKey key, JobMetrics metrics, AtomicInteger following, Queue<TrainerFollower> waiting) {
    }

    /** A collector that archives nothing (tests of the collector alone). */
    public MetricsCollector(JobBackend jobs, MetricsProperties limits, Clock clock) {
        this(jobs, limits, clock, MetricsArchive.NONE);
    }

    public MetricsCollector(JobBackend jobs, MetricsProperties limits, Clock clock, MetricsArchive archive) {
        this(jobs, limits, RETRY_INTERVAL, clock, archive);
    }

    /** @param retryInterval how soon a trainer's log that is not there yet is tried again (tests wait less) */
    public MetricsCollector(JobBackend jobs, MetricsProperties limits, Duration retryInterval, Clock clock,
                            MetricsArchive archive) {
        this.jobs = jobs;
        this.limits = limits;
        this.retryInterval = retryInterval;
        this.clock = clock;
        this.archive = archive;
        // A follower mostly waits on a log: cheap as a virtual thread where the JDK has them.
        followers.setVirtualThreads(Runtime.version().feature() >= 21);
        followers.setDaemon(true);
        followers.setTaskTerminationTimeout(1000);
        jobs.onChange(new ChangedKeys(changes, keys -> keys.forEach(this::changed)));
    }

    /**
     * What the job reported after {@code since} (0: everything kept); {@link MetricsSnapshot#complete complete} once
     * the job has finished and its trainers' followers have read all their lines.
     */
    public MetricsSnapshot read(Job job, long since) {
        if (job.status().archived()) {
            Optional<MetricsSnapshot> kept = archive.keptMetrics(job.key());
            // None kept yet: another replica ran it, and keeps its metrics once it has read their last lines.
            return kept.map(snapshot -> snapshot.after(since).completed(true))
                    .orElseGet(() -> MetricsSnapshot.NOTHING.completed(endedLongAgo(job)));
        }
        Watched known = metricsOf(job);
        if (!job.status().phase().isFinished()) {
            return known.metrics().since(since);
        }
        // Counted before the points are taken: a follower that ends after this read has added all it read.
        boolean complete = allRead(known) || endedLongAgo(job);
        return known.metrics().since(since).settled().completed(complete);
    }

    /** Whether the job ended longer than {@link #SETTLED_AFTER} ago. */
    private boolean endedLongAgo(Job job) {
        Instant finished = job.status().finishedAt();
        return job.status().phase().isFinished()
                && (finished == null || !finished.plus(SETTLED_AFTER).isAfter(clock.instant()));
    }

    /**
     * Whether every follower of a finished job has ended. A trainer that never started (a job cancelled while
     * queued) wrote nothing: its follower waits in the queue, and counts as having read all there was. One whose
     * trainer did start is started first, so that it is not taken for one of those.
     */
    private boolean allRead(Watched job) {
        startWhatNoLongerWaits(job);
        return job.following().get() == job.waiting().size();
    }

    /**
     * How far the job is, from what its trainers reported ({@link Progress}); empty when none
     * reported, or when its metrics are not kept (this starts no reading: a list of a thousand
     * finished jobs must not read a thousand logs). A finished job's has no rate or time left.
     */
    public Optional<Progress> progress(Job job) {
        Watched known;
        synchronized (watched) {
            known = watched.get(job.key());
        }
        if (known == null || !Objects.equals(known.metrics().jobCreatedAt(), job.status().createdAt())) {
            // A job that finished before this service started: its progress as the archive kept it.
            return job.status().phase().isFinished() ? archived.getOrDefault(job.key(), Optional.empty())
                    : Optional.empty();
        }
        return known.metrics().progress()
                .map(progress -> job.status().phase().isFinished() ? progress.settled() : progress);
    }

    private void changed(JobKey key) {
        Optional<Job> now = jobs.find(key);
        if (now.isEmpty() || !now.get().status().phase().isFinished()) {
            archived.remove(key); // gone, or a new job under the name
        }
        Watched known;
        synchronized (watched) {
            known = watched.get(key);
        }
        if (now.isPresent() && (!now.get().status().phase().isFinished() || known == null && notArchived(key))) {
            known = metricsOf(now.get());
        }
        if (known != null) {
            startWhatNoLongerWaits(known); // also when the job went: its followers find out, and forget it
        }
    }

    private Watched metricsOf(Job job) {
        JobKey key = job.key();
        Watched started;
        int trainers;
        synchronized (watched) {
            Watched existing = watched.get(key);
            if (existing != null && Objects.equals(existing.metrics().jobCreatedAt(), job.status().createdAt())) {
                return existing;
            }
            trainers = Math.min(job.plan().trainers().count(), limits.trainersFollowed());
            started = new Watched(key, new JobMetrics(limits, job.status().createdAt()), new AtomicInteger(trainers),
                    new ConcurrentLinkedQueue<>());
            watched.put(key, started);
            dropFinishedBeyondLimit();
        }
        for (int index = 0; index < trainers; index++) {
            started.waiting().add(new TrainerFollower(jobs, key, index, started.metrics(), retryInterval,
                    clock, () -> forget(key, started)));
        }
        startWhatNoLongerWaits(started);
        return started;
    }

    // A follower takes a thread for as long as its trainer runs; one whose trainer has not started
    // waits in the queue instead, so that a thousand queued jobs cost no thread, only a look at
    // each of their changes. Queued first, looked at after: a start told meanwhile is not missed.
    private void startWhatNoLongerWaits(Watched job) {
        for (TrainerFollower follower : List.copyOf(job.waiting())) {
            if (!follower.trainerPending() && job.waiting().remove(follower)) { // removed once: started once
                followers.execute(() -> {
                    try {
                        follower.run();
                    } finally {
                        if (job.following().decrementAndGet() == 0) {
                            archiveIfFinished(job);
                        }
                    }
                });
            }
        }
    }

    private boolean notArchived(JobKey key) {
        if (archive == MetricsArchive.NONE || archived.containsKey(key)) {
            return false;
        }
        Optional<MetricsSnapshot> kept = archive.keptMetrics(key);
        if (kept.isPresent()) {
            archived.put(key, Optional.ofNullable(kept.get().progress()));
            return false;
        }
        return true;
    }

    /** Every trainer's follower ended: when that is because the job finished, its metrics are final. */
    private void archiveIfFinished(Watched job) {
        Optional<Job> now = jobs.find(job.key());
        if (now.isEmpty() || !now.get().status().phase().isFinished()
                || !Objects.equals(now.get().status().createdAt(), job.metrics().jobCreatedAt())) {
            return;
        }
        try {
            archive.keepMetrics(job.key(), job.metrics().since(0).settled().completed(true));
        } catch (RuntimeException e) {
            log.warn("Could not keep the metrics of job {} of namespace {} in the history: {}", job.key().name(),
                    job.key().namespace(), e.toString());
        }
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
        changes.shutdownNow();
        followers.close();
    }
}
