package io.paddlejobs.backend.local;

import io.paddlejobs.backend.CodePackages;
import io.paddlejobs.backend.JobBackend;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs jobs as OS processes on this machine. Jobs live in memory (reads never touch the disk)
 * and are written to their record on every change; at most {@code max-running-jobs} run at
 * once, the rest wait in submission order.
 */
final class LocalJobBackend implements JobBackend, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalJobBackend.class);
    private static final Comparator<Job> NEWEST_FIRST = Comparator
            .comparing((Job job) -> job.status().createdAt()).reversed()
            .thenComparing(job -> job.plan().name());

    private static final CodePackages NO_PACKAGES = new CodePackages() {
        @Override
        public boolean exists(String namespace, String id) {
            return false;
        }

        @Override
        public void unpackInto(String namespace, String id, java.nio.file.Path directory) throws IOException {
            throw new IOException("no code packages are configured");
        }
    };

    private final CodePackages packages;
    private final LocalProperties properties;
    private final JobPlanner planner;
    private final JobRecordStore store;
    private final Site site;
    private final PortAllocator ports;
    private final Clock clock;
    private final ConcurrentHashMap<JobKey, LocalJob> jobs = new ConcurrentHashMap<>();
    private final Deque<LocalJob> queue = new ArrayDeque<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    /** Jobs holding one of the running slots, with their first port ({@link #NO_PORTS} before allocation). */
    private final java.util.Map<JobKey, Integer> slots = new java.util.HashMap<>();
    private static final int NO_PORTS = -1;

    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock) {
        this(properties, planner, store, clock, NO_PACKAGES);
    }

    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock,
                    CodePackages packages) {
        this.packages = packages;
        this.properties = properties;
        this.planner = planner;
        this.store = store;
        this.site = new LoopbackSite(properties);
        this.ports = new PortAllocator(properties.firstPort(), properties.lastPort());
        this.clock = clock;
    }

    @Override
    public boolean shipsCodePackages() {
        return true;
    }

    @Override
    public Site site() {
        return site;
    }

    @Override
    public Job submit(JobPlan plan) {
        LocalJob job = new LocalJob(plan, clock.instant(), clock, this::persist);
        if (jobs.putIfAbsent(job.key(), job) != null) {
            throw new JobAlreadyExistsException(job.key());
        }
        persist(job);
        synchronized (this) {
            queue.addLast(job);
            startWhatFits();
        }
        return job.snapshot();
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return Optional.ofNullable(jobs.get(key)).map(LocalJob::snapshot);
    }

    @Override
    public List<Job> list(String namespace) {
        return jobs.values().stream().map(LocalJob::snapshot)
                .filter(job -> job.plan().namespace().equals(namespace))
                .sorted(NEWEST_FIRST).toList();
    }

    @Override
    public Optional<Job> cancel(JobKey key) {
        LocalJob job = jobs.get(key);
        if (job == null) {
            return Optional.empty();
        }
        stopNow(job, JobPhase.CANCELLED, "Cancelled", "cancelled on request");
        return Optional.of(job.snapshot());
    }

    @Override
    public boolean delete(JobKey key) {
        LocalJob job = jobs.get(key);
        if (job == null) {
            return false;
        }
        stopNow(job, JobPhase.CANCELLED, "Deleted", "deleted on request");
        jobs.remove(key, job);
        store.delete(key);
        return true;
    }

    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException {
        LocalJob job = jobs.get(key);
        if (job == null || index >= job.plan().role(role).count()) {
            return false;
        }
        String id = role.label() + "-" + index;
        LogFiles.write(store.logFile(key, id), tail, () -> follow && isActive(job, id), out);
        return true;
    }

    private static boolean isActive(LocalJob job, String replicaId) {
        return job.snapshot().status().replicas().stream()
                .anyMatch(r -> r.id().equals(replicaId) && (r.state() == io.paddlejobs.job.ReplicaState.RUNNING
                        || r.state() == io.paddlejobs.job.ReplicaState.PENDING));
    }

    /** Starts queued jobs while there are free slots, and tells the rest where they stand. */
    private synchronized void startWhatFits() {
        while (slots.size() < properties.maxRunningJobs() && !queue.isEmpty()) {
            LocalJob job = queue.pollFirst();
            if (job.phase() == JobPhase.PENDING) {
                slots.put(job.key(), NO_PORTS);
                start(job);
            }
        }
        int position = 1;
        for (LocalJob waiting : queue) {
            waiting.queuedAt(position++);
        }
    }

    private void start(LocalJob job) {
        JobPlan plan = job.plan();
        JobKey key = job.key();
        int firstPort;
        try {
            firstPort = ports.allocate(plan.ports().count());
        } catch (IllegalStateException e) {
            stopLater(job.failToStart(e.getMessage()));
            return;
        }
        slots.put(key, firstPort);
        JobPlan placed = planner.onPorts(plan, firstPort, site);
        job.placed(placed);
        try {
            Files.createDirectories(store.workDir(key));
            if (plan.spec().codePackage() != null) {
                packages.unpackInto(key.namespace(), plan.spec().codePackage(), store.workDir(key));
            }
            Files.createDirectories(store.logFile(key, "any").getParent());
            Files.createDirectories(properties.storageDir(key.namespace()));
            // Spawning is most of a start's time; the replicas are started side by side.
            List<CompletableFuture<Void>> starts = placed.replicas().stream()
                    .map(replica -> CompletableFuture.runAsync(() -> startReplica(job, placed, replica), executor))
                    .toList();
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        } catch (IOException | RuntimeException e) {
            // Whatever went wrong, the job ends failed and frees its slot: it must never hang as Pending.
            log.warn("Job {} could not start", key, e);
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            Throwable root = cause instanceof UncheckedIOException && cause.getCause() != null ? cause.getCause() : cause;
            stopLater(job.failToStart("a replica could not be started: " + root.getMessage()));
        } finally {
            job.startFinished();
        }
    }

    private void startReplica(LocalJob job, JobPlan plan, Replica replica) {
        JobKey key = job.key();
        try {
            ReplicaProcess process = ReplicaProcess.start(plan.role(replica.role()).entryPoint(), replica.env(),
                    store.workDir(key), store.logFile(key, replica.id()));
            boolean wanted = job.replicaStarted(replica, process);
            process.exit().thenAcceptAsync(code -> {
                stopLater(job.replicaExited(replica.id(), code));
                // Whatever the replica left running (its shell's children) goes with it.
                stopLater(List.of(process));
            }, executor);
            if (!wanted) {
                stopLater(List.of(process)); // the job ended while this replica was starting
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends the job now and waits until none of its processes is left. */
    private void stopNow(LocalJob job, JobPhase phase, String reason, String message) {
        synchronized (this) {
            queue.remove(job);
        }
        job.finish(phase, reason, message).forEach(process -> process.stop(properties.stopGracePeriod()));
    }

    private void stopLater(List<ReplicaProcess> processes) {
        processes.forEach(process -> executor.execute(() -> process.stop(properties.stopGracePeriod())));
    }

    /**
     * Every change is written through. Runs under the job's lock, so freeing a finished job's
     * slot is handed to another thread: the backend's lock is always taken before a job's.
     */
    private void persist(LocalJob job) {
        if (jobs.get(job.key()) != job) {
            return; // not accepted yet, or deleted
        }
        JobRecord record = job.record();
        store.save(record);
        if (record.status().phase().isFinished()) {
            executor.execute(() -> freeSlot(job.key(), record.plan().ports().count()));
        }
    }

    private synchronized void freeSlot(JobKey key, int portCount) {
        Integer firstPort = slots.remove(key);
        if (firstPort != null) {
            if (firstPort != NO_PORTS) {
                ports.release(firstPort, portCount);
            }
            startWhatFits();
        }
    }

    /**
     * Reads back the jobs of a previous run. Those that were running are marked failed and any
     * process of theirs still alive is stopped; those still queued are queued again, in order.
     */
    void recover() {
        List<JobRecord> records = store.loadAll().stream()
                .sorted(Comparator.comparing((JobRecord r) -> r.status().createdAt())).toList();
        for (JobRecord record : records) {
            LocalJob job = LocalJob.restore(record, clock, this::persist);
            jobs.put(job.key(), job);
            boolean wasQueued = job.phase() == JobPhase.PENDING && record.processes().isEmpty();
            if (wasQueued) {
                synchronized (this) {
                    queue.addLast(job);
                }
            } else if (!job.phase().isFinished()) {
                record.processes().values().forEach(ref -> ReplicaProcess.stopLeftover(ref, properties.stopGracePeriod()));
                job.finish(JobPhase.FAILED, "ServiceRestarted",
                        "the service restarted while the job was running; its processes were stopped. Submit it again.");
            }
        }
        startWhatFits();
    }

    /** On a normal shutdown no replica outlives the service: every running job is stopped and recorded as failed. */
    @Override
    public void close() {
        List<LocalJob> active = jobs.values().stream().filter(job -> !job.phase().isFinished()).toList();
        synchronized (this) {
            queue.clear();
        }
        active.parallelStream().forEach(job -> job.finish(JobPhase.FAILED, "ServiceStopped",
                        "the service was stopped while the job was running")
                .forEach(process -> process.stop(properties.stopGracePeriod())));
        executor.shutdown();
        try {
            // Exit callbacks still write records; let them finish before the files are left alone.
            executor.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
