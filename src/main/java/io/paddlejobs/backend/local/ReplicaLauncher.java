package io.paddlejobs.backend.local;

import io.paddlejobs.backend.LastWords;
import io.paddlejobs.backend.Rendezvous;
import io.paddlejobs.backend.SecretStore;
import io.paddlejobs.backend.StepSightings;
import io.paddlejobs.backend.TensorBoardScalars;
import io.paddlejobs.backend.local.process.PserverWatch;
import io.paddlejobs.backend.local.process.RendezvousGate;
import io.paddlejobs.backend.local.process.ReplicaEnvironment;
import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.process.SpawnHealth;
import io.paddlejobs.backend.local.record.JobRecordStore;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.backend.local.schedule.GpuDevice;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a placed job's replicas as processes, side by side, and stops them: now (cancel, delete)
 * or later, off the calling thread (which may hold a job's lock). When a replica's process ends
 * its job is told, and whatever the process left running is stopped. A job whose pserver never
 * listens, or that runs past its {@code max_run_time}, is failed and stopped; one whose trainers all
 * fall silent for its {@code stall_timeout} is stalled ({@link StallWatch}).
 *
 * <p>The order of a start: every replica is spawned behind its gate ({@link ReplicaProcess}), the
 * job's record is written with their pids, then the gates open. A replica therefore never runs
 * before what identifies it is on disk, and a service killed at any point leaves nothing the next
 * one cannot stop. A job's next attempt starts only once every process of the last one is gone,
 * and the job is told of each process gone ({@link LocalJob#processGone}), which is when what it
 * held is free again.
 */
final class ReplicaLauncher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaLauncher.class);
    private static final int MAX_MESSAGE = 500;
    private static final Duration BACKOFF_LOOK = Duration.ofSeconds(1);
    private static final long RENDEZVOUS_LOOK_MILLIS = 20;
    private static final int WORK_THREADS = 64;
    private static final int SPAWN_THREADS = 8;
    /** How often, and how many times, a started replica's entry point is looked for (its pid for the status). */
    private static final long PID_LOOK_MILLIS = 50;
    private static final int PID_LOOKS = 100;

    private final LocalProperties properties;
    private final JobRecordStore store;
    private final JobWorkspace workspace;
    private final Sandbox sandbox;
    private final SpawnHealth spawnHealth;
    private final ReplicaEnvironment environment;
    private final SecretStore secrets;
    private final LocalImages images;
    private final Clock clock;
    /**
     * Stops, exits and attempts: these tasks wait (on a grace period, a spawn) but never on each other,
     * so a bounded pool with a queue cannot deadlock; past its threads they wait their turn.
     */
    private final ThreadPoolExecutor executor = bounded("local-replicas", WORK_THREADS);
    /** Spawns only: a start waits on them from a thread of {@link #executor}, so they need their own. */
    private final ThreadPoolExecutor spawnPool = bounded("local-spawns", SPAWN_THREADS);
    private final StartRecord startRecord;

    /** How a start makes its job's record durable before its replicas run ({@link #launch}). */
    interface StartRecord {

        /**
         * Writes the job's record at once (its replicas spawned, waiting at their gates) and then, under
         * the same hold of the job's lock (so that no cancel or failure comes in between), runs {@code letRun}.
         * False, running nothing, when the record could not be written or the job is no longer to run
         * (ended, deleted).
         */
        boolean keepThenRun(LocalJob job, Runnable letRun);
    }

    /** Pserver watches and run-time limits; a limit is dropped from it as soon as its job ends. */
    private final ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "local-job-timers");
        thread.setDaemon(true);
        return thread;
    });
    private final RunTimeLimits runTimeLimits = new RunTimeLimits(timers, this::stopLater);
    private final JobPlanner planner;
    private final Site site;
    private final RestartBackoff backoff;
    /** When each trainer last reported a new step: a job that reports steps shows progress only so. */
    private final StepSightings steps = new StepSightings();
    private volatile Consumer<LocalJob> onStall = job -> {
    };

    /**
     * @param startRecord makes a started job's record durable, then lets its replicas run
     * @param secrets     the operator's store of the secrets jobs may name, read into a replica's environment as it starts
     */
    ReplicaLauncher(LocalProperties properties, JobPlanner planner, Site site, JobRecordStore store,
                    CodePackages packages, Sandbox sandbox, SpawnHealth spawnHealth, Clock clock,
                    RestartBackoff backoff, StartRecord startRecord, SecretStore secrets) {
        this.properties = properties;
        this.startRecord = startRecord;
        this.secrets = secrets;
        this.images = LocalImages.of(properties.images());
        this.backoff = backoff;
        this.planner = planner;
        this.site = site;
        this.store = store;
        this.workspace = new JobWorkspace(properties.dataRoot(), sandbox.users(), packages);
        this.sandbox = sandbox;
        this.spawnHealth = spawnHealth;
        this.environment = new ReplicaEnvironment(properties.inheritEnv());
        this.clock = clock;
        timers.setRemoveOnCancelPolicy(true);
    }

    /** Where the metrics reader's sightings of new steps go, for the stall judgement. */
    StepSightings steps() {
        return steps;
    }

    /** At most {@code threads} daemon threads, idle ones ending after a while; tasks past them queue. */
    private static ThreadPoolExecutor bounded(String name, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Where work runs that must not run on the calling thread. */
    Executor executor() {
        return executor;
    }

    /**
     * Starts a job that got a slot: it is planned again on its ports, each replica is given its GPUs,
     * and its replicas are started. Whatever goes wrong, the job ends failed: it never hangs as Pending.
     */
    void start(LocalJob job, int firstPort, GpuAssignment gpus) {
        JobPlan placed = gpus.applyTo(planner.onPorts(job.plan(), firstPort, site));
        if (!job.placed(placed, gpus)) {
            return; // it ended on its way out of the queue
        }
        if (job.restartAt() != null) {
            // Read back while it waited to be started again: the rest of its backoff, then its next attempt.
            attemptAt(job, job.restartAt());
            return;
        }
        JobKey key = job.key();
        try {
            launch(job, placed);
            runTimeLimits.limit(job, placed.spec().lifecycle().maxRunTime());
        } catch (JobWorkspace.UnpackFailedException e) {
            log.warn("Job {} could not unpack its package: {}", key, e.getMessage());
            stopLater(job.failToStart(bounded(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            log.warn("Job {} could not start", key, e);
            stopLater(job.failToStart(bounded("a replica could not be started: " + rootCause(e).getMessage())));
        } finally {
            job.startFinished();
        }
    }

    /**
     * Makes what is missing of the job's directories ({@link JobWorkspace}: the package is unpacked
     * at its first start), then starts the replicas of its current attempt, side by side, and watches
     * its pservers.
     */
    private void launch(LocalJob job, JobPlan placed) throws IOException {
        JobWorkspace.Prepared workspace = this.workspace.prepare(job.key(), placed.spec().code().codePackage(),
                placed.replicas().stream().map(Replica::id).toList());
        int attempt = job.attempt();
        if (!startSideBySide(job, placed, RendezvousGate.startFirst(placed), attempt, workspace)) {
            return;
        }
        watchPservers(job, placed, attempt);
        if (RendezvousGate.applies(placed)) {
            lookAt(job, placed, RendezvousGate.of(placed, properties.rendezvousListenTimeout(), clock), attempt,
                    workspace);
        }
        watchForStalls(job, placed, attempt);
    }

    /**
     * Spawning is most of a start's time: these replicas are spawned side by side, each behind its gate,
     * and let run once the job's record names them. False when they were not let run (the job ended
     * meanwhile, or its record could not be written: it is then failed).
     */
    private boolean startSideBySide(LocalJob job, JobPlan placed, List<Replica> replicas, int attempt,
                                    JobWorkspace.Prepared workspace) {
        List<CompletableFuture<ReplicaProcess>> spawned = replicas.stream()
                .map(replica -> CompletableFuture.supplyAsync(
                        () -> spawnReplica(job, placed, replica, attempt, workspace), spawnPool))
                .toList();
        try {
            CompletableFuture.allOf(spawned.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            stopLater(spawned.stream().filter(f -> !f.isCompletedExceptionally()).map(CompletableFuture::join)
                    .filter(Objects::nonNull).toList());
            throw e;
        }
        List<ReplicaProcess> wanted = spawned.stream().map(CompletableFuture::join).filter(Objects::nonNull).toList();
        // Their pids on disk before any of them runs: a later start of the service finds and stops them.
        if (!startRecord.keepThenRun(job, () -> wanted.forEach(ReplicaProcess::open))) {
            // Ended meanwhile (then this changes nothing), or its record cannot be written.
            stopLater(job.failToStart("its record could not be written, so its replicas were not let run"));
            stopLater(wanted);
            return false;
        }
        Map<String, ReplicaProcess> byReplica = new HashMap<>();
        for (int i = 0; i < replicas.size(); i++) {
            if (spawned.get(i).join() != null) {
                byReplica.put(replicas.get(i).id(), spawned.get(i).join());
            }
        }
        lookForPids(job, attempt, byReplica, PID_LOOKS);
        return true;
    }

    /**
     * Looks up where each replica's entry point runs, for its status, until every one is found (the sandbox
     * makes it a moment after the gate opens) or {@link #PID_LOOKS} looks have passed.
     */
    private void lookForPids(LocalJob job, int attempt, Map<String, ReplicaProcess> left, int looks) {
        if (job.phase().isFinished() || job.attempt() != attempt) {
            return;
        }
        left.entrySet().removeIf(replica -> ReplicaProcessTree.entryPoint(replica.getValue().pid(), sandbox.usesBubblewrap())
                .map(ids -> {
                    job.replicaPids(attempt, replica.getKey(), replica.getValue(), ids);
                    return true;
                }).orElse(false));
        if (!left.isEmpty() && looks > 1) {
            try {
                timers.schedule(() -> lookForPids(job, attempt, left, looks - 1), PID_LOOK_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException shuttingDown) {
                // no status to show them in
            }
        }
    }

    /** Does what a failure's outcome says: a restart after its backoff, a hold until it is over, or the stops. */
    private void follow(LocalJob job, LocalJob.Outcome outcome) {
        if (outcome.restartAt() != null) {
            restartLater(job, outcome);
        } else if (outcome.heldUntil() != null) {
            endHoldAt(job, outcome.heldUntil());
        } else {
            stopLater(outcome.toStop());
        }
    }

    /**
     * Ends the job's hold once its clock reads {@code until}, read again at least every {@link #BACKOFF_LOOK} as a
     * backoff is ({@link #attemptAt}); nothing once the hold ended otherwise (a cancel, {@code max_run_time}).
     */
    private void endHoldAt(LocalJob job, Instant until) {
        if (!job.held()) {
            return;
        }
        long delay = Math.max(0, Duration.between(clock.instant(), until).toMillis());
        try {
            if (delay == 0) {
                executor.execute(() -> follow(job, job.holdOver(backoff)));
            } else {
                timers.schedule(() -> endHoldAt(job, until), Math.min(delay, BACKOFF_LOOK.toMillis()), TimeUnit.MILLISECONDS);
            }
        } catch (RejectedExecutionException shuttingDown) {
            // the service stops, and ends the hold as its attempt would have ended (LocalJobBackend.close)
        }
    }

    /**
     * Runs {@code command} (a shell command line) in a replica of a held job as the replica ran, once the job's
     * record names it; it is stopped when the hold ends, and with whatever it started once it ends.
     *
     * @throws JobConflictException when the job is not held (any more)
     */
    ReplicaProcess exec(LocalJob job, Replica replica, String command) throws IOException {
        ReplicaProcess.Launch launch = job.heldLaunch(replica.id());
        ReplicaProcess exec = ReplicaProcess.exec(launch, command, sandbox, environment);
        boolean kept = job.execStarted(exec);
        // Told before its gate opens: one that never runs is gone too, and holds the job's next attempt no longer.
        exec.exit().thenRunAsync(() -> {
            exec.stop(properties.stopGracePeriod());
            job.execEnded(exec);
        }, executor);
        if (!kept || !exec.open()) {
            stopLater(List.of(exec));
            throw JobConflictException.notHeld(job.key());
        }
        return exec;
    }

    /**
     * A failed attempt's processes are stopped (gracefully, all at once), then the next attempt starts when
     * its backoff has passed. The job keeps its slot and ports meanwhile, so it starts on the same ports.
     */
    private void restartLater(LocalJob job, LocalJob.Outcome outcome) {
        executor.execute(() -> {
            stopNow(outcome.toStop());
            attemptAt(job, outcome.restartAt());
        });
    }

    /**
     * Starts the job's next attempt once its clock reads {@code at}. The clock is read again at least
     * every {@link #BACKOFF_LOOK}, not once for a single long timer: it is the job's clock that says when
     * the backoff is over (a clock a test moves ahead, too).
     */
    private void attemptAt(LocalJob job, Instant at) {
        if (job.restartAt() == null) {
            return; // it ended during its backoff (cancelled, deleted): no attempt follows
        }
        long delay = Math.max(0, Duration.between(clock.instant(), at).toMillis());
        try {
            if (delay == 0) {
                nextAttempt(job);
            } else {
                timers.schedule(() -> attemptAt(job, at), Math.min(delay, BACKOFF_LOOK.toMillis()), TimeUnit.MILLISECONDS);
            }
        } catch (RejectedExecutionException shuttingDown) {
            // the record says when it was due: the next start of the service starts it
        }
    }

    /** The next attempt starts once no process of the last one is left (it may still hold the job's GPUs). */
    private void nextAttempt(LocalJob job) {
        job.whenIdle(() -> runElsewhere(() -> beginNextAttempt(job)));
    }

    private void beginNextAttempt(LocalJob job) {
        if (!job.beginAttempt()) {
            return; // cancelled, deleted or stopped during its backoff
        }
        try {
            store.keepLogsOf(job.key(), job.attempt() - 1, job.plan().replicas().stream().map(Replica::id).toList());
            launch(job, job.plan());
            // Counted from the job's first start; a job read back from its record is limited from then on.
            runTimeLimits.limitOnce(job, job.plan().spec().lifecycle().maxRunTime(), job.snapshot().status().startedAt());
        } catch (IOException | RuntimeException e) {
            log.warn("Job {} could not start again", job.key(), e);
            stopLater(job.failToStart(bounded("a replica could not be started again: " + rootCause(e).getMessage())));
        } finally {
            job.startFinished();
        }
    }

    /** Stops these processes and returns once none of them is left; they are stopped side by side. */
    void stopNow(List<ReplicaProcess> processes) {
        ReplicaProcess.stopAll(processes, properties.stopGracePeriod());
    }

    /** Stops these processes on another thread, side by side; here, when the service is stopping. */
    void stopLater(List<ReplicaProcess> processes) {
        if (processes.isEmpty()) {
            return;
        }
        try {
            executor.execute(() -> stopNow(processes));
        } catch (RejectedExecutionException shuttingDown) {
            stopNow(processes); // nothing of a job outlives the service, not even a replica behind its gate
        }
    }

    private void runElsewhere(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException shuttingDown) {
            // the service stops: close() stops every running job's processes itself
        }
    }

    /** The job has ended: its run-time limit no longer applies. */
    void ended(LocalJob job) {
        runTimeLimits.ended(job);
    }

    /** Stops what is left of the replicas of a previous run of the service (see {@link ReplicaProcess#stopLeftovers}). */
    void stopLeftovers(List<ReplicaProcess.ProcessRef> leftovers) {
        ReplicaProcess.stopLeftovers(leftovers, properties.stopGracePeriod());
    }

    /**
     * Spawns one replica behind its closed gate and tells its job. Returns the process to let run, or
     * {@code null} when the job ended meanwhile (it is then stopped, never having run).
     */
    private ReplicaProcess spawnReplica(LocalJob job, JobPlan plan, Replica replica, int attempt,
                                        JobWorkspace.Prepared workspace) {
        JobKey key = job.key();
        try {
            Map<String, String> env = new HashMap<>(replica.env());
            env.put(PaddleEnv.RESTART_COUNT, Integer.toString(attempt));
            // The image's stand-in first on PATH: the entry point's python is the one the operator chose for it.
            images.binFor(plan.spec(), replica.role()).ifPresent(bin -> env.put("PATH",
                    LocalImages.path(bin, env.getOrDefault("PATH", System.getenv("PATH")))));
            // Read as it starts, into its environment alone: the plan and the record hold the names only.
            env.putAll(secrets.values(plan.spec().code().envFromSecrets(), key.namespace()));
            var launch = new ReplicaProcess.Launch(key + "/" + replica.id(), TensorBoardScalars.command(plan, replica.role()),
                    env, workspace.replicas().get(replica.id()), workspace.user(), store.logFile(key, replica.id()),
                    properties.maxLogSize().toBytes(), job.gpus().of(replica.id()).stream().map(GpuDevice::index).toList());
            ReplicaProcess process = start(launch);
            boolean wanted = job.replicaStarted(attempt, replica, process);
            process.exit().thenAcceptAsync(code -> {
                // Read once its output is drained: a failed replica's last line is often the reason it failed.
                // Masked as every other output of it: a message goes to the history and webhooks.
                Optional<String> lastWords = code == 0 ? Optional.empty() : LastWords.of(store.logFile(key, replica.id()))
                        .map(secrets.mask(plan.spec().code().envFromSecrets(), key.namespace())::apply);
                follow(job, job.replicaExited(attempt, replica.id(), code, lastWords, backoff));
                // Whatever the replica left running (its shell's children) goes with it; only then is it gone.
                process.stop(properties.stopGracePeriod());
                job.processGone(process);
            }, executor);
            if (!wanted) {
                stopLater(List.of(process)); // the job ended while this replica was spawned
                return null;
            }
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts one replica's process; a start that failed for want of processes makes the service not ready. */
    private ReplicaProcess start(ReplicaProcess.Launch launch) throws IOException {
        try {
            ReplicaProcess process = ReplicaProcess.start(launch, sandbox, environment);
            spawnHealth.started();
            return process;
        } catch (IOException | OutOfMemoryError e) {
            spawnHealth.failed(e);
            throw e instanceof OutOfMemoryError ? new IOException(e.getMessage(), e) : (IOException) e;
        }
    }

    /** Fails the job if one of its pservers never listens (see {@link PserverWatch}). */
    private void watchPservers(LocalJob job, JobPlan placed, int attempt) {
        if (!placed.replicasOf(Role.PSERVER).isEmpty()) {
            lookAt(job, new PserverWatch(placed, properties.pserverListenTimeout(), clock), attempt);
        }
    }

    private void lookAt(LocalJob job, PserverWatch watch, int attempt) {
        if (job.phase().isFinished() || job.attempt() != attempt || job.restartAt() != null) {
            return; // ended, or the attempt it watched did (the next one has a watch of its own)
        }
        Map<String, ReplicaStatus> replicas = job.snapshot().status().replicas().stream()
                .collect(Collectors.toMap(ReplicaStatus::id, Function.identity()));
        Optional<String> failure = watch.check(replicas);
        if (failure.isPresent()) {
            stopLater(job.finish(JobPhase.FAILED, "PserverNotListening", failure.get()));
        } else if (!watch.isDone()) {
            timers.schedule(() -> lookAt(job, watch, attempt), 1, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts the trainers held for trainer 0's master port once it listens (see {@link RendezvousGate}), or
     * fails the job when it does not in time. Looked at often: each look a held trainer waits is start-up time.
     */
    private void lookAt(LocalJob job, JobPlan placed, RendezvousGate gate, int attempt,
                        JobWorkspace.Prepared workspace) {
        if (job.phase().isFinished() || job.attempt() != attempt || job.restartAt() != null) {
            return; // ended, or the attempt it watched did (the next one has a gate of its own)
        }
        Map<String, ReplicaStatus> replicas = job.snapshot().status().replicas().stream()
                .collect(Collectors.toMap(ReplicaStatus::id, Function.identity()));
        switch (gate.look(replicas)) {
            case WAIT -> timers.schedule(() -> lookAt(job, placed, gate, attempt, workspace), RENDEZVOUS_LOOK_MILLIS,
                    TimeUnit.MILLISECONDS);
            case RELEASE -> executor.execute(() -> {
                try {
                    startSideBySide(job, placed, RendezvousGate.held(placed), attempt, workspace);
                } catch (RuntimeException e) {
                    log.warn("Job {} could not start its other trainers", job.key(), e);
                    stopLater(job.failToStart(bounded("a replica could not be started: " + rootCause(e).getMessage())));
                }
            });
            case FAIL -> stopLater(job.finish(JobPhase.FAILED, Rendezvous.NOT_LISTENING, gate.failure()));
            case GIVE_UP -> {
                // trainer 0 failed or was stopped: its exit decides the job
            }
        }
    }

    /** Told once as a stall is seen, before the stall restarts or fails the attempt: the stacks are taken then. */
    void onStall(Consumer<LocalJob> then) {
        this.onStall = then;
    }

    /** Looks for a stall of this attempt as long as it runs, when the job has a {@code stall_timeout}. */
    private void watchForStalls(LocalJob job, JobPlan placed, int attempt) {
        if (placed.spec().lifecycle().stallTimeout() != null) {
            lookForStall(job, new StallWatch(placed.spec().lifecycle().stallTimeout(), clock.instant()), attempt, false);
        }
    }

    /**
     * @param told whether {@link #onStall} was told of the stall going on now: once per stall, not at every look
     */
    private void lookForStall(LocalJob job, StallWatch watch, int attempt, boolean told) {
        if (job.phase().isFinished() || job.attempt() != attempt || job.restartAt() != null) {
            return; // ended, or the attempt it watched did (the next one has a watch of its own)
        }
        Optional<String> silence = watch.silence(job.snapshot().status().replicas(),
                id -> lastWritten(job.key(), id), id -> steps.last(job.key(), id), clock.instant());
        if (silence.isPresent() && !told) {
            // Told off the timer thread (py-spy takes a while); the stall is judged after, while the processes still run.
            runElsewhere(() -> {
                onStall.accept(job);
                judgeStall(job, watch, attempt, silence, true);
            });
            return;
        }
        judgeStall(job, watch, attempt, silence, told && silence.isPresent());
    }

    private void judgeStall(LocalJob job, StallWatch watch, int attempt, Optional<String> silence, boolean told) {
        LocalJob.Outcome outcome = job.stallSeen(attempt, silence, backoff);
        if (outcome.restartAt() != null || outcome.heldUntil() != null || !outcome.toStop().isEmpty()) {
            follow(job, outcome); // this attempt has failed: its watch is over
        } else {
            try {
                timers.schedule(() -> lookForStall(job, watch, attempt, told), watch.interval().toMillis(),
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException shuttingDown) {
                // the service stops: so does the watch
            }
        }
    }

    /** When a replica last wrote to its log: the sink appends each line as it comes. */
    private Instant lastWritten(JobKey key, String replicaId) {
        try {
            return Files.getLastModifiedTime(store.logFile(key, replicaId)).toInstant();
        } catch (IOException notYet) {
            return null;
        }
    }

    /** A status message stays a sentence: whatever a cause says, it cannot swell a status or a record. */
    static String bounded(String message) {
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "...";
    }

    /** What went wrong, without the wrappers of the parallel start and of unchecked I/O. */
    private static Throwable rootCause(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof UncheckedIOException && cause.getCause() != null ? cause.getCause() : cause;
    }

    /** Stops the timers, and lets the exit callbacks, which still write records, finish first. */
    @Override
    public void close() {
        timers.shutdownNow();
        spawnPool.shutdown();
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
