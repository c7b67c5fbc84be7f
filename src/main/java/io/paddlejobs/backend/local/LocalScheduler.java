package io.paddlejobs.backend.local;

import io.paddlejobs.job.JobPhase;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.ObjIntConsumer;

/**
 * Which jobs run on this machine: at most {@code max-running-jobs} hold a slot, each with its own
 * block of ports; the others wait in submission order and are shown their position.
 *
 * <p>Lock order: this scheduler's lock is taken before a job's, never the other way round. A
 * job's changes run under the job's lock, so a finished job's slot is freed from another thread
 * ({@link #release}). Jobs that get a slot are started outside this lock, so starting one (which
 * spawns processes) never holds up a submit.
 */
final class LocalScheduler {

    /** A running job's slot: the block of ports it holds. */
    private record Slot(int firstPort, int portCount) {
    }

    /** A job that has just got a slot, to be started on these ports. */
    private record Admitted(LocalJob job, int firstPort) {
    }

    private final int maxRunning;
    private final PortAllocator ports;
    private final Executor elsewhere;
    private final ObjIntConsumer<LocalJob> start;
    private final Deque<LocalJob> queue = new ArrayDeque<>();
    /** By job, not by key: a late release of a deleted job must not free the slot of a new one of its name. */
    private final Map<LocalJob, Slot> slots = new HashMap<>();

    /**
     * @param elsewhere runs what must not run on the calling thread (freeing a slot from under a job's lock)
     * @param start     starts a job that got a slot, on its first port
     */
    LocalScheduler(int maxRunning, PortAllocator ports, Executor elsewhere, ObjIntConsumer<LocalJob> start) {
        this.maxRunning = maxRunning;
        this.ports = ports;
        this.elsewhere = elsewhere;
        this.start = start;
    }

    /** Queues a job behind the others and starts what fits. */
    void submit(LocalJob job) {
        List<Admitted> admitted;
        synchronized (this) {
            queue.addLast(job);
            admitted = admitWhatFits();
        }
        startAll(admitted);
    }

    /** Queues a job read back from its record without starting anything yet (see {@link #startWhatFits}). */
    synchronized void requeue(LocalJob job) {
        queue.addLast(job);
    }

    void startWhatFits() {
        List<Admitted> admitted;
        synchronized (this) {
            admitted = admitWhatFits();
        }
        startAll(admitted);
    }

    /** Takes a waiting job out of the queue; returns false when it was not waiting. */
    synchronized boolean withdraw(LocalJob job) {
        boolean removed = queue.remove(job);
        if (removed) {
            showPositions();
        }
        return removed;
    }

    /** Hands back a finished job's slot and ports, on another thread (a job's lock may be held here). */
    void release(LocalJob job) {
        try {
            elsewhere.execute(() -> freeSlot(job));
        } catch (RejectedExecutionException shuttingDown) {
            // no slot matters any more
        }
    }

    /** Empties the queue, for a shutdown: the jobs that were waiting, which their records say still are. */
    synchronized List<LocalJob> drain() {
        List<LocalJob> waiting = new ArrayList<>(queue);
        queue.clear();
        return waiting;
    }

    private void freeSlot(LocalJob job) {
        List<Admitted> admitted;
        synchronized (this) {
            Slot slot = slots.remove(job);
            if (slot == null) {
                return;
            }
            ports.release(slot.firstPort(), slot.portCount());
            admitted = admitWhatFits();
        }
        startAll(admitted);
    }

    /** Gives free slots to the first waiting jobs, and tells the rest where they stand. */
    private List<Admitted> admitWhatFits() {
        List<Admitted> admitted = new ArrayList<>();
        while (slots.size() < maxRunning && !queue.isEmpty()) {
            LocalJob job = queue.pollFirst();
            if (!job.waitsForSlot()) {
                continue; // ended while it waited
            }
            int portCount = job.plan().ports().count();
            try {
                int firstPort = ports.allocate(portCount);
                slots.put(job, new Slot(firstPort, portCount));
                admitted.add(new Admitted(job, firstPort));
            } catch (IllegalStateException noPorts) {
                // It never held a slot, so the next one may fit; it has no process to stop.
                job.failToStart(noPorts.getMessage());
            }
        }
        showPositions();
        return admitted;
    }

    /** Positions are shown, not written (see {@link LocalJob#showQueuePosition}): this touches no file. */
    private void showPositions() {
        int position = 1;
        for (LocalJob waiting : queue) {
            waiting.showQueuePosition(position++);
        }
    }

    private void startAll(List<Admitted> admitted) {
        admitted.forEach(job -> start.accept(job.job(), job.firstPort()));
    }
}
