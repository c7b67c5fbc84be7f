package io.paddlejobs.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link JobBackend#onChange} listener for a reader with a thread of its own: the keys told on
 * the backend's threads (which must not wait, and often hold its locks) are collected, and one
 * look at all of them is queued on the reader's thread. A burst of changes costs one look, and a
 * look that fails is logged and does not stop the next.
 */
public final class ChangedKeys implements Consumer<JobKey> {

    private static final Logger log = LoggerFactory.getLogger(ChangedKeys.class);

    private final Executor thread;
    private final Consumer<List<JobKey>> look;
    private final Set<JobKey> keys = ConcurrentHashMap.newKeySet();
    /** Whether a look is on the thread's queue. */
    private final AtomicBoolean lookQueued = new AtomicBoolean();

    /** @param look called on {@code thread} with the keys told since the last look, each once */
    public ChangedKeys(Executor thread, Consumer<List<JobKey>> look) {
        this.thread = thread;
        this.look = look;
    }

    @Override
    public void accept(JobKey key) {
        keys.add(key);
        if (lookQueued.compareAndSet(false, true)) {
            try {
                thread.execute(this::lookAtTold);
            } catch (RejectedExecutionException stopping) {
                lookQueued.set(false);
            }
        }
    }

    private void lookAtTold() {
        lookQueued.set(false); // before taking the keys: one told after this queues another look
        List<JobKey> taken = new ArrayList<>(keys);
        keys.removeAll(taken);
        try {
            look.accept(taken);
        } catch (RuntimeException e) {
            log.warn("Could not look at the jobs that changed: {}", e.toString());
        }
    }
}
