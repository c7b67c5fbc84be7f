package io.paddlejobs.job;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link JobWatcher} whose calls are queued and run on its caller's {@link SenderLane}, in order
 * and one at a time: the feed's thread only queues. A stream's send blocks while its client does not
 * read (a full socket, until Tomcat's write timeout gives up on it); it then holds one thread of its
 * caller's lane, and no other caller's watcher waits for it. A call that has run longer than a send
 * may is given up on ({@link #abandonIfStalled}): the watcher is dropped and its lane's place freed.
 */
final class SerialWatcher implements JobWatcher {

    private static final Logger log = LoggerFactory.getLogger(SerialWatcher.class);

    private final JobWatcher watcher;
    private final Executor pool;
    private final Queue<Runnable> calls = new ConcurrentLinkedQueue<>();
    /** Whether a pool thread is running the calls; taking it over is what orders one run after the other. */
    private final AtomicBoolean running = new AtomicBoolean();
    /** When the call now running began ({@link System#nanoTime}); 0 while none runs. */
    private volatile long busySince;
    private volatile SenderLane.Place place;
    private volatile boolean abandoned;

    SerialWatcher(JobWatcher watcher, Executor pool) {
        this.watcher = watcher;
        this.pool = pool;
    }

    /** Where its calls run: its caller's lane. */
    Executor lane() {
        return pool;
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

    /**
     * Drops the watcher when its call has run longer than {@code limit}: its client stopped reading.
     * Called on the feed's thread.
     */
    void abandonIfStalled(Duration limit) {
        long since = busySince;
        if (since == 0 || abandoned || System.nanoTime() - since < limit.toNanos()) {
            return;
        }
        abandoned = true;
        calls.clear();
        SenderLane.Place stuck = place;
        if (stuck != null) {
            stuck.leave();
        }
        log.info("A stream's client has not read for {} s: dropped", limit.toSeconds());
        watcher.abandoned();
    }

    private void post(Runnable call) {
        if (abandoned) {
            return;
        }
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
            place = SenderLane.current();
            for (Runnable call = calls.poll(); call != null && !abandoned; call = calls.poll()) {
                busySince = System.nanoTime();
                try {
                    call.run();
                } catch (RuntimeException e) {
                    log.warn("A watcher of jobs failed: {}", e.toString()); // its next call may do better
                } finally {
                    busySince = 0;
                }
            }
        } finally {
            place = null;
            running.set(false);
            runIfIdle(); // a call queued after the last poll, before running was cleared
        }
    }
}
