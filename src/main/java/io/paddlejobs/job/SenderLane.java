package io.paddlejobs.job;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One caller's share of the {@link JobFeed}'s senders: at most {@code width} of its tasks run at
 * once on the shared pool, the rest wait in order. Clients of one tenant that stopped reading
 * hold that tenant's lane only; every other tenant's sends go on. A task that is given up on
 * ({@link Place#leave}) makes room for the next before its thread comes back. A task the shared pool
 * has no thread for now (every one holds a stuck send) goes back to the head of the lane and is
 * tried again ({@link #retry}, every second): it is delayed, never dropped, since a watcher whose
 * call was dropped would wait for it for ever.
 */
final class SenderLane implements Executor {

    /** A running task's place in its lane. */
    static final class Place {

        private final SenderLane lane;
        private final AtomicBoolean held = new AtomicBoolean(true);

        private Place(SenderLane lane) {
            this.lane = lane;
        }

        /** The next task may run: this one's thread is stuck (or done). */
        void leave() {
            if (held.compareAndSet(true, false)) {
                lane.running.decrementAndGet();
                lane.startWaiting();
            }
        }
    }

    private static final Logger log = LoggerFactory.getLogger(SenderLane.class);
    private static final ThreadLocal<Place> CURRENT = new ThreadLocal<>();

    private final ExecutorService pool;
    private final int width;
    private final Deque<Runnable> waiting = new ConcurrentLinkedDeque<>();
    private final AtomicInteger running = new AtomicInteger();

    SenderLane(ExecutorService pool, int width) {
        this.pool = pool;
        this.width = width;
    }

    /** The place of the task that runs on this thread, if a lane started it. */
    static Place current() {
        return CURRENT.get();
    }

    @Override
    public void execute(Runnable task) {
        waiting.add(task);
        startWaiting();
    }

    /** Starts what waits for a thread of the pool, as far as the lane's width and the pool's threads allow. */
    void retry() {
        startWaiting();
    }

    /** Nothing of it runs or waits: it may be forgotten once no watcher uses it. */
    boolean idle() {
        return running.get() == 0 && waiting.isEmpty();
    }

    private void startWaiting() {
        while (!waiting.isEmpty()) {
            int now = running.get();
            if (now >= width) {
                return;
            }
            if (!running.compareAndSet(now, now + 1)) {
                continue;
            }
            Runnable task = waiting.poll();
            if (task == null) {
                running.decrementAndGet();
                continue;
            }
            Place place = new Place(this);
            try {
                pool.execute(() -> run(task, place));
            } catch (RejectedExecutionException rejected) {
                running.decrementAndGet();
                if (pool.isShutdown()) {
                    log.debug("Sends were not started: the feed stops");
                    waiting.clear();
                } else {
                    waiting.addFirst(task); // every thread of the pool is busy: tried again at the next retry
                }
                return;
            }
        }
    }

    private static void run(Runnable task, Place place) {
        CURRENT.set(place);
        try {
            task.run();
        } finally {
            CURRENT.remove();
            place.leave();
        }
    }
}
