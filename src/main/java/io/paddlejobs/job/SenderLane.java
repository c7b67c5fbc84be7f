package io.paddlejobs.job;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One caller's share of the {@link JobFeed}'s senders: at most {@code width} of its tasks run at
 * once on the shared pool, the rest wait in order. Clients of one tenant that stopped reading
 * hold that tenant's lane only; every other tenant's sends go on. A task that is given up on
 * ({@link Place#leave}) makes room for the next before its thread comes back.
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

    private final Executor pool;
    private final int width;
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger running = new AtomicInteger();

    SenderLane(Executor pool, int width) {
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
            } catch (RejectedExecutionException stopping) {
                log.debug("Sends were not started: the feed stops");
                running.decrementAndGet();
                waiting.clear();
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
