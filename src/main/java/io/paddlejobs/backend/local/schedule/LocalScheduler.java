package io.paddlejobs.backend.local.schedule;

import io.paddlejobs.backend.local.LocalJob;
import io.paddlejobs.job.Capacity;
import io.paddlejobs.job.JobPhase;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Which jobs run on this machine: at most {@code max-running-jobs} hold a slot, each with its own
 * block of ports and the GPUs, memory and CPUs the {@link ResourceLedger} gave it; the others wait
 * in submission order and are shown their position. The first waiting job is never overtaken: one
 * that asks for many GPUs is not starved by smaller ones behind it.
 *
 * <p>Lock order: this scheduler's lock is taken before a job's, never the other way round. A
 * job's changes run under the job's lock, so a finished job's slot is freed from another thread
 * ({@link #release}). Jobs that get a slot are started outside this lock, so starting one (which
 * spawns processes) never holds up a submit.
 */
public final class LocalScheduler {

    /** A running job's slot: the block of ports it holds. */
    private record Slot(int firstPort, int portCount) {
    }

    /**
     * A job that has just got a slot, to be started on these ports with these GPUs; or, with {@code noPorts},
     * one that got none and fails: either is done outside this scheduler's lock (a failure writes its record).
     */
    private record Admitted(LocalJob job, int firstPort, GpuAssignment gpus, String noPorts) {
    }

    /** Starts a job that got a slot. */
    public interface Starter {
        void start(LocalJob job, int firstPort, GpuAssignment gpus);
    }

    private final int maxRunning;
    private final PortAllocator ports;
    private final ResourceLedger resources;
    private final Executor elsewhere;
    private final Starter start;
    private final Deque<LocalJob> queue = new ArrayDeque<>();
    /** By job, not by key: a late release of a deleted job must not free the slot of a new one of its name. */
    private final Map<LocalJob, Slot> slots = new HashMap<>();

    /**
     * @param elsewhere runs what must not run on the calling thread (freeing a slot from under a job's lock)
     * @param start     starts a job that got a slot, on its first port
     */
    public LocalScheduler(int maxRunning, PortAllocator ports, ResourceLedger resources, Executor elsewhere, Starter start) {
        this.maxRunning = maxRunning;
        this.ports = ports;
        this.resources = resources;
        this.elsewhere = elsewhere;
        this.start = start;
    }

    /** Queues a job behind the others and starts what fits. */
    public void submit(LocalJob job) {
        List<Admitted> admitted;
        synchronized (this) {
            queue.addLast(job);
            admitted = admitWhatFits();
        }
        startAll(admitted);
    }

    /** Queues a job read back from its record without starting anything yet (see {@link #startWhatFits}). */
    public synchronized void requeue(LocalJob job) {
        queue.addLast(job);
    }

    /**
     * A job read back from its record while its processes may still run: it holds its GPUs, memory
     * and CPUs until it is released, so no waiting job is started on them meanwhile.
     */
    synchronized void holdRecovered(LocalJob job) {
        resources.hold(job, job.plan(), job.gpus());
    }

    /** What this machine has, and who holds what. */
    public synchronized Capacity capacity() {
        return resources.capacity();
    }

    public void startWhatFits() {
        List<Admitted> admitted;
        synchronized (this) {
            admitted = admitWhatFits();
        }
        startAll(admitted);
    }

    /** Takes a waiting job out of the queue; returns false when it was not waiting. */
    public synchronized boolean withdraw(LocalJob job) {
        boolean removed = queue.remove(job);
        if (removed) {
            showPositions();
        }
        return removed;
    }

    /**
     * Hands back an ended job's slot, ports and resources once none of its processes is left, on
     * another thread (a job's lock may be held here).
     */
    public void release(LocalJob job) {
        try {
            elsewhere.execute(() -> freeSlot(job));
        } catch (RejectedExecutionException shuttingDown) {
            // no slot matters any more
        }
    }

    /**
     * A job has ended but may still hold what it held until its last process is gone ({@link #release}):
     * the waiting jobs are told again what they wait for, on another thread (a job's lock may be held here).
     */
    public void ended(LocalJob job) {
        try {
            elsewhere.execute(() -> {
                synchronized (this) {
                    if (slots.containsKey(job) && !queue.isEmpty()) {
                        showPositions();
                    }
                }
            });
        } catch (RejectedExecutionException shuttingDown) {
            // nobody waits any more
        }
    }

    /** Empties the queue, for a shutdown: the jobs that were waiting, which their records say still are. */
    public synchronized List<LocalJob> drain() {
        List<LocalJob> waiting = new ArrayList<>(queue);
        queue.clear();
        return waiting;
    }

    private void freeSlot(LocalJob job) {
        List<Admitted> admitted;
        synchronized (this) {
            boolean heldResources = resources.release(job);
            Slot slot = slots.remove(job);
            if (slot == null && !heldResources) {
                return;
            }
            if (slot != null) {
                ports.release(slot.firstPort(), slot.portCount());
            }
            admitted = admitWhatFits();
        }
        startAll(admitted);
    }

    /** Gives free slots to the first waiting jobs, as long as the first one fits, and tells the rest where they stand. */
    private List<Admitted> admitWhatFits() {
        List<Admitted> admitted = new ArrayList<>();
        while (slots.size() < maxRunning && !queue.isEmpty()) {
            LocalJob job = queue.peekFirst();
            if (!job.waitsForSlot()) {
                queue.pollFirst();
                continue; // ended while it waited
            }
            Optional<GpuAssignment> gpus = resources.take(job, job.plan(), job.gpus());
            if (gpus.isEmpty()) {
                break; // it waits for resources, and the rest wait behind it
            }
            queue.pollFirst();
            int portCount = job.plan().ports().count();
            try {
                int firstPort = ports.allocate(portCount);
                slots.put(job, new Slot(firstPort, portCount));
                admitted.add(new Admitted(job, firstPort, gpus.get(), null));
            } catch (IllegalStateException noPorts) {
                // It never held a slot, so the next one may fit; it has no process to stop.
                resources.release(job);
                admitted.add(new Admitted(job, 0, GpuAssignment.NONE, noPorts.getMessage()));
            }
        }
        showPositions();
        return admitted;
    }

    /** Positions are shown, not written (see {@link LocalJob#showQueuePosition}): this touches no file. */
    private void showPositions() {
        int position = 1;
        String firstWaitsFor = null;
        for (LocalJob waiting : queue) {
            if (waiting.phase() != JobPhase.PENDING) {
                continue;
            }
            if (position == 1 && slots.size() < maxRunning) {
                firstWaitsFor = waiting.key().name();
                waiting.showWaitingForResources(resources.shortage(waiting.plan()));
            } else {
                waiting.showQueuePosition(position, firstWaitsFor);
            }
            position++;
        }
    }

    private void startAll(List<Admitted> admitted) {
        for (Admitted job : admitted) {
            if (job.noPorts() != null) {
                job.job().failToStart(job.noPorts());
            } else {
                start.start(job.job(), job.firstPort(), job.gpus());
            }
        }
    }
}
