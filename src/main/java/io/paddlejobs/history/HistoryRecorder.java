package io.paddlejobs.history;

import io.paddlejobs.job.ChangedKeys;
import io.paddlejobs.job.HistoryUnavailableException;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.metrics.MetricsArchive;
import io.paddlejobs.metrics.MetricsSnapshot;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Writes each change every backend tells of ({@link JobBackend#onChange}) into the history, on a
 * thread of its own, and keeps each replica's log once a job finished, and its metrics once the
 * collector has them all: what is needed to answer for the job after the backend forgot it. A status equal to the last one written is not written again
 * (an informer's resync tells of many jobs that did not change; a restarted service is told of
 * every job, most of them recorded already). A write the store could not take (it was away) is tried
 * again until it succeeds, so the history catches up after the store was away; a write it refused (a
 * value it will never take) is reported once and not tried again until the job changes. Logs are read
 * and kept on a thread of their own: a read can take long (an API call per pod on Kubernetes, a node
 * that is gone), and must not hold up other jobs' history writes.
 *
 * <p>Each write says when the backend was read for it ({@link JdbcJobHistory#record(Job, Instant)}):
 * a look that began before a delete, or before the name was submitted again, writes nothing.
 */
final class HistoryRecorder implements MetricsArchive, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HistoryRecorder.class);

    /**
     * How soon a change the store could not take is written again: a store that is back is written within seconds,
     * one that is not costs a connection attempt per waiting job every few seconds.
     */
    static final Duration RETRY_EVERY = Duration.ofSeconds(5);

    private final JobBackend backend;
    private final JdbcJobHistory history;
    private final int maxLogBytes;
    private final int maxEarlierLogBytes;
    private final Duration retryEvery;
    private final DiskFloor floor;
    private final ScheduledThreadPoolExecutor thread = daemon("job-history");
    private final ScheduledThreadPoolExecutor logs = daemon("job-history-logs");
    // Only the recorder's thread touches them.
    private final Map<JobKey, JobStatus> written = new HashMap<>();
    private final Set<JobKey> toRetry = new HashSet<>();

    /**
     * @param maxLogBytes        how much of each replica's log of the attempt the job finished on is kept
     * @param maxEarlierLogBytes how much of the end of each replica's log of each earlier attempt is kept
     * @param retryEvery         {@link #RETRY_EVERY}, or what a test waits for
     */
    HistoryRecorder(JobBackend backend, JdbcJobHistory history, int maxLogBytes, int maxEarlierLogBytes,
                    Duration retryEvery, DiskFloor floor) {
        this.backend = backend;
        this.history = history;
        this.maxLogBytes = maxLogBytes;
        this.maxEarlierLogBytes = maxEarlierLogBytes;
        this.retryEvery = retryEvery;
        this.floor = floor;
        // At close, the changes told so far are written; retries waiting for the store are not waited for.
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        logs.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        backend.onChange(new ChangedKeys(thread, keys -> keys.forEach(this::look)));
    }

    private static ScheduledThreadPoolExecutor daemon(String name) {
        return new ScheduledThreadPoolExecutor(1, task -> {
            Thread recorder = new Thread(task, name);
            recorder.setDaemon(true);
            return recorder;
        });
    }

    private void look(JobKey key) {
        Instant readAt = history.clock().instant(); // before the backend is read: what this look finds was there then
        Job job = backend.find(key).orElse(null);
        if (job == null) {
            written.remove(key); // gone from the backend: the history keeps what was last written
            return;
        }
        if (job.status().equals(written.get(key))) {
            return;
        }
        try {
            if (!written.containsKey(key) && recordedAlready(job)) {
                written.put(key, job.status());
                return;
            }
            if (history.record(job, readAt) && job.status().phase().isFinished()) {
                JobStatus before = written.get(key);
                logs.execute(() -> keepLogs(job, before, readAt));
            }
            written.put(key, job.status());
        } catch (HistoryUnavailableException e) {
            // Not marked written: written when the store is back, or with the job's next change.
            warnUnavailable("job", key, e);
            if (toRetry.add(key)) {
                thread.schedule(() -> {
                    toRetry.remove(key);
                    look(key);
                }, retryEvery.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (DataAccessException e) {
            // Refused, and it would be again: marked written, so that it is neither retried nor reported at
            // each look; its next change is written anew.
            written.put(key, job.status());
            log.warn("The history refused job {} of namespace {}; it is not tried again until the job changes: {}",
                    key.name(), key.namespace(), e.toString());
        } catch (RuntimeException e) {
            // Not marked written: the next change of the job writes it again.
            log.warn("Could not write job {} of namespace {} into the history: {}", key.name(), key.namespace(),
                    e.toString());
        }
    }

    @Override
    public void keepMetrics(JobKey key, MetricsSnapshot metrics) {
        Instant readAt = history.clock().instant();
        thread.execute(() -> writeMetrics(key, metrics, readAt));
    }

    private void writeMetrics(JobKey key, MetricsSnapshot metrics, Instant readAt) {
        try {
            history.keepMetrics(key, metrics, readAt);
        } catch (HistoryUnavailableException e) {
            warnUnavailable("the metrics of job", key, e);
            thread.schedule(() -> writeMetrics(key, metrics, readAt), retryEvery.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            log.warn("The history refused the metrics of job {} of namespace {}: {}", key.name(), key.namespace(),
                    e.toString());
        }
    }

    @Override
    public Optional<MetricsSnapshot> keptMetrics(JobKey key) {
        return history.keptMetrics(key);
    }

    private void warnUnavailable(String what, JobKey key, HistoryUnavailableException e) {
        log.warn("Could not write {} {} of namespace {} into the history, tried again every {} ms: {}", what, key.name(),
                key.namespace(), retryEvery.toMillis(), e.getCause() != null ? e.getCause().toString() : e.toString());
    }

    /** Whether the history has the job as it stands (the service was restarted since it wrote it). */
    private boolean recordedAlready(Job job) {
        Optional<Job> recorded = history.find(job.key());
        return recorded.isPresent() && recorded.get().status().equals(job.status().asArchived());
    }

    /**
     * Keeps the log of each replica that has settled (ended, or been stopped), once: a finished job changes several
     * times more as the cluster stops and removes its replicas, and reading every log at each change cost an API
     * request per replica each time. A replica still running when the job finished (its pservers, being stopped)
     * is read when it has stopped, with all it wrote.
     */
    private void keepLogs(Job job, JobStatus before, Instant readAt) {
        try {
            keepLogsOnce(job, before, readAt);
        } catch (HistoryUnavailableException e) {
            warnUnavailable("the logs of job", job.key(), e);
            logs.schedule(() -> keepLogs(job, before, readAt), retryEvery.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            log.warn("Could not keep the logs of job {} of namespace {}: {}", job.key().name(), job.key().namespace(),
                    e.toString());
        }
    }

    private void keepLogsOnce(Job job, JobStatus before, Instant readAt) {
        // A settled replica's state does not change again, though its message or times may (its pod removed).
        Set<String> keptBefore = new HashSet<>();
        if (before != null && before.phase().isFinished()) {
            before.replicas().stream().filter(HistoryRecorder::settled).forEach(r -> keptBefore.add(r.id() + "/" + r.state()));
        }
        for (ReplicaStatus replica : List.copyOf(job.status().replicas())) {
            if (!settled(replica) || keptBefore.contains(replica.id() + "/" + replica.state())) {
                continue;
            }
            long free = floor.freeBelowFloor();
            if (free >= 0) {
                log.warn("Job {} of namespace {} is kept in the history without the log of {}: the history's disk has {} MiB"
                        + " free, below paddlejobs.min-free-space ({} MiB)", job.key().name(), job.key().namespace(),
                        replica.id(), free >> 20, floor.floor().toMegabytes());
                continue;
            }
            LogEnd kept = new LogEnd(maxLogBytes);
            try {
                if (backend.writeLogs(job.key(), replica.role(), replica.index(), null, false, kept)) {
                    history.keepLog(job.key(), replica.role(), replica.index(), kept.text(), readAt);
                    keepEarlierLogs(job, replica, readAt);
                }
            } catch (HistoryUnavailableException e) {
                throw e; // the store's fault: tried again
            } catch (DataAccessException e) {
                log.warn("The history refused the log of {} of job {}: {}", replica.id(), job.key().name(), e.toString());
            } catch (IOException | RuntimeException e) {
                // The backend's: a node that is gone cannot serve its pods' logs, now or later. The job
                // is written without this one, rather than read again at each of its changes.
                log.warn("Could not read the log of {} of job {} to keep it: {}", replica.id(), job.key().name(),
                        e.toString());
            }
        }
    }

    /**
     * Keeps the end of the replica's log of each attempt before the one the job finished on, where the backend kept
     * them apart: what a restart was for (the crash's traceback) outlives the backend's copy.
     */
    private void keepEarlierLogs(Job job, ReplicaStatus replica, Instant readAt) throws IOException {
        if (!backend.keepsEarlierAttemptLogs()) {
            return;
        }
        for (int attempt = 0; attempt < job.status().restarts(); attempt++) {
            LogEnd kept = new LogEnd(maxEarlierLogBytes, "paddlejobs.history.max-earlier-log-size");
            if (backend.writeEarlierLog(job.key(), replica.role(), replica.index(), attempt, null, kept)) {
                history.keepEarlierLog(job.key(), replica.role(), replica.index(), attempt, kept.text(), readAt);
            }
        }
    }

    private static boolean settled(ReplicaStatus replica) {
        return replica.state() != ReplicaState.RUNNING && replica.state() != ReplicaState.PENDING;
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdown();
        thread.awaitTermination(5, TimeUnit.SECONDS);
        logs.shutdown();
        logs.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** How many jobs wait to be written again once the store is back (asked on the recorder's thread). */
    int waitingForTheStore() throws InterruptedException, java.util.concurrent.ExecutionException {
        return thread.submit(toRetry::size).get();
    }

    /** Whether it has stopped, with every change told before {@link #close} written. */
    boolean stopped() {
        return thread.isTerminated();
    }
}
