package io.paddlejobs.history;

import io.paddlejobs.job.ChangedKeys;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each change every backend tells of ({@link JobBackend#onChange}) into the history, on a
 * thread of its own, and keeps the last lines of each replica's log once a job finished: what is
 * needed to answer for the job after the backend forgot it. A status equal to the last one written
 * is not written again (an informer's resync tells of many jobs that did not change).
 */
final class HistoryRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HistoryRecorder.class);

    private final JobBackend backend;
    private final JobHistory history;
    private final int logLines;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
        Thread recorder = new Thread(task, "job-history");
        recorder.setDaemon(true);
        return recorder;
    });
    // Only the recorder's thread touches it.
    private final Map<JobKey, JobStatus> written = new HashMap<>();

    HistoryRecorder(JobBackend backend, JobHistory history, int logLines) {
        this.backend = backend;
        this.history = history;
        this.logLines = logLines;
        backend.onChange(new ChangedKeys(thread, keys -> keys.forEach(this::look)));
    }

    private void look(JobKey key) {
        Job job = backend.find(key).orElse(null);
        if (job == null) {
            written.remove(key); // gone from the backend: the history keeps what was last written
            return;
        }
        if (job.status().equals(written.get(key))) {
            return;
        }
        try {
            history.record(job);
            if (job.status().phase().isFinished()) {
                keepLogTails(job);
            }
            written.put(key, job.status());
        } catch (RuntimeException e) {
            // Not marked written: the next change of the job writes it again.
            log.warn("Could not write job {} of namespace {} into the history: {}", key.name(), key.namespace(),
                    e.toString());
        }
    }

    private void keepLogTails(Job job) {
        for (ReplicaStatus replica : List.copyOf(job.status().replicas())) {
            ByteArrayOutputStream tail = new ByteArrayOutputStream();
            try {
                if (backend.writeLogs(job.key(), replica.role(), replica.index(), logLines, false, tail)) {
                    history.keepLogTail(job.key(), replica.role(), replica.index(),
                            tail.toString(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                log.warn("Could not read the log of {} of job {} to keep it: {}", replica.id(), job.key().name(),
                        e.toString());
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdown();
        thread.awaitTermination(5, TimeUnit.SECONDS);
    }
}
