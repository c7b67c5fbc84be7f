package io.paddlejobs.backend.local;

import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaStatus;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private final DiskSpace disk;
    private final Sandbox sandbox;
    private final ReplicaEnvironment environment;
    private final Clock clock;
    private final ConcurrentHashMap<JobKey, LocalJob> jobs = new ConcurrentHashMap<>();
    private final Deque<LocalJob> queue = new ArrayDeque<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScheduledExecutorService watches = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "pserver-watch");
        thread.setDaemon(true);
        return thread;
    });
    /** Jobs holding one of the running slots, with their first port ({@link #NO_PORTS} before allocation). */
    private final java.util.Map<JobKey, Integer> slots = new java.util.HashMap<>();
    private static final int NO_PORTS = -1;

    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock, Sandbox sandbox) {
        this(properties, planner, store, clock, sandbox, NO_PACKAGES);
    }

    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock, Sandbox sandbox,
                    CodePackages packages) {
        this.packages = packages;
        this.properties = properties;
        this.sandbox = sandbox;
        this.environment = new ReplicaEnvironment(properties.inheritEnv());
        this.planner = planner;
        this.store = store;
        this.site = new LoopbackSite(properties);
        this.ports = new PortAllocator(properties.firstPort(), properties.lastPort());
        this.disk = new DiskSpace(properties.dataRoot(), properties.minFreeSpace());
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
        try {
            disk.requireRoomFor(job.key());
            store.delete(job.key()); // whatever an earlier job of this name left (its log, its work directory)
            store.save(job.record());
        } catch (RuntimeException e) {
            // Nothing half-done: a job that could not be written is not kept, so it never hangs as Pending.
            jobs.remove(job.key(), job);
            throw disk.refusal(job.key(), e);
        }
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
        // Under the job's lock, which every record write holds: no write of this job follows the removal.
        synchronized (job) {
            if (!jobs.remove(key, job)) {
                return true; // a concurrent delete did it
            }
        }
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
        renumberQueue();
    }

    /** Positions are shown, not written (see {@link LocalJob#queuedAt}): this touches no file. */
    private synchronized void renumberQueue() {
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
            watchPservers(job, placed);
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
            var launch = new ReplicaProcess.Launch(key + "/" + replica.id(), plan.role(replica.role()).entryPoint(),
                    replica.env(), store.workDir(key), properties.storageDir(key.namespace()),
                    store.logFile(key, replica.id()), properties.maxLogSize().toBytes());
            ReplicaProcess process = ReplicaProcess.start(launch, sandbox, environment);
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

    /** Fails the job if one of its pservers never listens (see {@link PserverWatch}). */
    private void watchPservers(LocalJob job, JobPlan placed) {
        if (!placed.replicasOf(Role.PSERVER).isEmpty()) {
            lookAt(job, new PserverWatch(placed, properties.pserverListenTimeout(), clock));
        }
    }

    private void lookAt(LocalJob job, PserverWatch watch) {
        if (job.phase().isFinished()) {
            return;
        }
        var replicas = job.snapshot().status().replicas().stream()
                .collect(java.util.stream.Collectors.toMap(ReplicaStatus::id, replica -> replica));
        Optional<String> failure = watch.check(replicas);
        if (failure.isPresent()) {
            stopLater(job.finish(JobPhase.FAILED, "PserverNotListening", failure.get()));
        } else if (!watch.isDone()) {
            watches.schedule(() -> lookAt(job, watch), 1, TimeUnit.SECONDS);
        }
    }

    /** Ends the job now and waits until none of its processes is left; its replicas are stopped side by side. */
    private void stopNow(LocalJob job, JobPhase phase, String reason, String message) {
        synchronized (this) {
            if (queue.remove(job)) {
                renumberQueue();
            }
        }
        ReplicaProcess.stopAll(job.finish(phase, reason, message), properties.stopGracePeriod());
    }

    private void stopLater(List<ReplicaProcess> processes) {
        processes.forEach(process -> executor.execute(() -> process.stop(properties.stopGracePeriod())));
    }

    /**
     * Every change is written through. Runs under the job's lock, so freeing a finished job's
     * slot is handed to another thread: the backend's lock is always taken before a job's. A write
     * that fails (a full disk) is logged and changes nothing else: the job in memory is the truth,
     * its slot is freed, its processes are stopped, and the next change writes the record again.
     */
    private void persist(LocalJob job) {
        if (jobs.get(job.key()) != job) {
            return; // not accepted yet, or deleted
        }
        JobRecord record = job.record();
        if (record.status().phase().isFinished()) {
            try {
                executor.execute(() -> freeSlot(job.key(), job.plan().ports().count()));
            } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
                // no slot matters any more
            }
        }
        try {
            store.save(record);
        } catch (UncheckedIOException e) {
            log.warn("Job {}: {} ({}); it goes on in memory and is written at its next change",
                    job.key(), e.getMessage(), e.getCause() == null ? "" : e.getCause().toString());
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
     * process of theirs still alive is stopped, all at once; those still queued are queued again,
     * in order. A record whose request no longer plans is moved aside like any unusable one.
     */
    void recover() {
        List<LocalJob> restored = new ArrayList<>();
        for (JobRecordStore.Stored stored : store.loadAll()) {
            JobRecord record = stored.record();
            try {
                JobPlan plan = planner.plan(record.request(), record.namespace(), site);
                if (record.port() != null) {
                    plan = planner.onPorts(plan, record.port(), site);
                }
                restored.add(LocalJob.restore(plan, record, clock, this::persist));
            } catch (RuntimeException e) {
                store.quarantine(stored.dir(), "its request no longer plans: " + e.getMessage());
            }
        }
        restored.sort(Comparator.comparing((LocalJob job) -> job.snapshot().status().createdAt()));
        List<ReplicaProcess.ProcessRef> leftovers = new ArrayList<>();
        for (LocalJob job : restored) {
            JobRecord record = job.record();
            jobs.put(job.key(), job);
            boolean wasQueued = job.phase() == JobPhase.PENDING && record.processes().isEmpty();
            if (wasQueued) {
                synchronized (this) {
                    queue.addLast(job);
                }
            } else if (!job.phase().isFinished()) {
                leftovers.addAll(record.processes().values());
                job.finish(JobPhase.FAILED, "ServiceRestarted",
                        "the service restarted while the job was running; its processes were stopped. "
                                + "To run it again, delete it and submit it again (or submit it under another name).");
            }
        }
        ReplicaProcess.stopLeftovers(leftovers, properties.stopGracePeriod());
        startWhatFits();
    }

    /** On a normal shutdown no replica outlives the service: every running job is stopped and recorded as failed. */
    @Override
    public void close() {
        List<LocalJob> active;
        synchronized (this) {
            // Queued jobs stay queued, as their records say: the next start runs them, as after a crash.
            java.util.Set<LocalJob> queued = new java.util.HashSet<>(queue);
            queue.clear();
            active = jobs.values().stream().filter(job -> !job.phase().isFinished() && !queued.contains(job)).toList();
            queued.forEach(job -> jobs.remove(job.key(), job));
        }
        List<ReplicaProcess> toStop = new ArrayList<>();
        active.forEach(job -> toStop.addAll(job.finish(JobPhase.FAILED, "ServiceStopped",
                "the service was stopped while the job was running. To run it again, delete it and submit it again "
                        + "(or submit it under another name).")));
        ReplicaProcess.stopAll(toStop, properties.stopGracePeriod());
        watches.shutdownNow();
        executor.shutdown();
        try {
            // Exit callbacks still write records; let them finish before the files are left alone.
            executor.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
