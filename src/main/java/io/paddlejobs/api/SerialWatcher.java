package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link JobWatcher} whose calls are queued and run on a shared pool, in order and one at a
 * time: the feed's thread only queues. A stream's send blocks while its client does not read (a
 * full socket, until Tomcat's write timeout gives up on it); it then holds one of the pool's threads,
 * and no other watcher waits for it.
 */
final class SerialWatcher implements JobWatcher {

    private static final Logger log = LoggerFactory.getLogger(SerialWatcher.class);

    private final JobWatcher watcher;
    private final Executor pool;
    private final Queue<Runnable> calls = new ConcurrentLinkedQueue<>();
    /** Whether a pool thread is running the calls; taking it over is what orders one run after the other. */
    private final AtomicBoolean running = new AtomicBoolean();

    SerialWatcher(JobWatcher watcher, Executor pool) {
        this.watcher = watcher;
        this.pool = pool;
    }

    @Override
    public void changed(JobKey key, Job job) {
        post(() -> watcher.changed(key, job));
    }

    @Override
    public void everySecond() {
        if (calls.isEmpty()) { // a watcher still busy gets no second tick on top
            post(watcher::everySecond);
        }
    }

    @Override
    public void closed() {
        post(watcher::closed);
    }

    private void post(Runnable call) {
        calls.add(call);
        runIfIdle();
    }

    private void runIfIdle() {
        if (!calls.isEmpty() && running.compareAndSet(false, true)) {
            try {
                pool.execute(this::runQueued);
            } catch (RejectedExecutionException stopping) {
                running.set(false);
                calls.clear();
            }
        }
    }

    private void runQueued() {
        try {
            for (Runnable call = calls.poll(); call != null; call = calls.poll()) {
                try {
                    call.run();
                } catch (RuntimeException e) {
                    log.warn("A watcher of jobs failed: {}", e.toString()); // its next call may do better
                }
            }
        } finally {
            running.set(false);
            runIfIdle(); // a call queued after the last poll, before running was cleared
        }
    }
}
