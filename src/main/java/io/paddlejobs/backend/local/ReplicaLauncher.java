package io.paddlejobs.backend.local;

import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a placed job's replicas as processes, side by side, and stops them: now (cancel, delete)
 * or later, off the calling thread (which may hold a job's lock). When a replica's process ends
 * its job is told, and whatever the process left running is stopped. A job whose pserver never
 * listens, or that runs past its {@code max_run_time}, is failed and stopped.
 */
final class ReplicaLauncher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaLauncher.class);
    private static final int MAX_MESSAGE = 500;

    private final LocalProperties properties;
    private final JobRecordStore store;
    private final CodePackages packages;
    private final Sandbox sandbox;
    private final ReplicaEnvironment environment;
    private final Clock clock;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    /** Pserver watches and run-time limits; a limit is dropped from it as soon as its job ends. */
    private final ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "local-job-timers");
        thread.setDaemon(true);
        return thread;
    });
    private final RunTimeLimits runTimeLimits = new RunTimeLimits(timers, this::stopLater);
    private final JobPlanner planner;
    private final Site site;

    ReplicaLauncher(LocalProperties properties, JobPlanner planner, Site site, JobRecordStore store,
                    CodePackages packages, Sandbox sandbox, Clock clock) {
        this.properties = properties;
        this.planner = planner;
        this.site = site;
        this.store = store;
        this.packages = packages;
        this.sandbox = sandbox;
        this.environment = new ReplicaEnvironment(properties.inheritEnv());
        this.clock = clock;
        timers.setRemoveOnCancelPolicy(true);
    }

    /** Where work runs that must not run on the calling thread. */
    Executor executor() {
        return executor;
    }

    /**
     * Starts a job that got a slot: it is planned again on its ports, and its replicas are started.
     * Whatever goes wrong, the job ends failed: it never hangs as Pending.
     */
    void start(LocalJob job, int firstPort) {
        JobPlan placed = planner.onPorts(job.plan(), firstPort, site);
        if (!job.placed(placed)) {
            return; // it ended on its way out of the queue
        }
        JobKey key = job.key();
        try {
            Files.createDirectories(store.workDir(key));
            if (placed.spec().codePackage() != null) {
                try {
                    packages.unpackInto(key.namespace(), placed.spec().codePackage(), store.workDir(key));
                } catch (IOException e) {
                    log.warn("Job {} could not unpack its package: {}", key, e.getMessage());
                    stopLater(job.failToStart(bounded(e.getMessage())));
                    return;
                }
            }
            Files.createDirectories(store.logFile(key, "any").getParent());
            Files.createDirectories(properties.storageDir(key.namespace()));
            sandbox.handOver(store.workDir(key), properties.storageDir(key.namespace()));
            // Spawning is most of a start's time; the replicas are started side by side.
            List<CompletableFuture<Void>> starts = placed.replicas().stream()
                    .map(replica -> CompletableFuture.runAsync(() -> startReplica(job, placed, replica), executor))
                    .toList();
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
            watchPservers(job, placed);
            runTimeLimits.limit(job, placed.spec().maxRunTime());
        } catch (IOException | RuntimeException e) {
            log.warn("Job {} could not start", key, e);
            stopLater(job.failToStart(bounded("a replica could not be started: " + rootCause(e).getMessage())));
        } finally {
            job.startFinished();
        }
    }

    /** Stops these processes and returns once none of them is left; they are stopped side by side. */
    void stopNow(List<ReplicaProcess> processes) {
        ReplicaProcess.stopAll(processes, properties.stopGracePeriod());
    }

    /** Stops these processes on other threads. */
    void stopLater(List<ReplicaProcess> processes) {
        processes.forEach(process -> executor.execute(() -> process.stop(properties.stopGracePeriod())));
    }

    /** The job has ended: its run-time limit no longer applies. */
    void ended(LocalJob job) {
        runTimeLimits.ended(job);
    }

    /** Stops what is left of the replicas of a previous run of the service (see {@link ReplicaProcess#stopLeftovers}). */
    void stopLeftovers(List<ReplicaProcess.ProcessRef> leftovers) {
        ReplicaProcess.stopLeftovers(leftovers, properties.stopGracePeriod());
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
        Map<String, ReplicaStatus> replicas = job.snapshot().status().replicas().stream()
                .collect(Collectors.toMap(ReplicaStatus::id, Function.identity()));
        Optional<String> failure = watch.check(replicas);
        if (failure.isPresent()) {
            stopLater(job.finish(JobPhase.FAILED, "PserverNotListening", failure.get()));
        } else if (!watch.isDone()) {
            timers.schedule(() -> lookAt(job, watch), 1, TimeUnit.SECONDS);
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
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
