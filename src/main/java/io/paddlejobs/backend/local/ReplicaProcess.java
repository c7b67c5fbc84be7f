package io.paddlejobs.backend.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One replica as an OS process: {@code sh -c <entry point>}, started as its {@link Sandbox} says,
 * with only the environment {@link ReplicaEnvironment} gives it, its output copied into a capped
 * log ({@link LogSink}). Stopping it stops everything it started ({@link ProcessGroups}), since the
 * shell's children (the user's program) would otherwise outlive it.
 */
final class ReplicaProcess {

    /** How long the end of a replica waits for the rest of its output to reach the log. */
    private static final long DRAIN_SECONDS = 5;

    private final Process process;
    private final LogSink log;

    private ReplicaProcess(Process process, LogSink log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Where and how one replica runs.
     *
     * @param dirs its directories: it starts in its own working directory
     * @param user who it runs as; null: the service's user
     * @param gpus the indexes of the GPUs the replica was given (the sandbox shows it their device nodes)
     */
    record Launch(String id, String entryPoint, Map<String, String> env, JobWorkspace.ReplicaDirectories dirs,
                  JobUsers.JobUser user, Path logFile, long maxLogBytes, List<Integer> gpus) {
    }

    static ReplicaProcess start(Launch launch, Sandbox sandbox, ReplicaEnvironment environment) throws IOException {
        Map<String, String> env = environment.of(System.getenv(), launch.env(), sandbox.home(launch.dirs().work()));
        Sandbox.Start start = sandbox.start(launch.entryPoint(), launch.dirs(), launch.user(), env, launch.gpus());
        ProcessBuilder builder = new ProcessBuilder(start.command())
                .directory(launch.dirs().work().toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(start.environment());
        Process process = builder.start();
        process.getOutputStream().close();
        return new ReplicaProcess(process, LogSink.start(process.getInputStream(), launch.logFile(), launch.maxLogBytes(),
                launch.id()));
    }

    ProcessRef ref() {
        return new ProcessRef(process.pid(), process.toHandle().info().startInstant().orElse(null));
    }

    /**
     * Completes with the exit code when the process ends (128 + n when killed by signal n), once its
     * output is in the log (or after a few seconds, when something it left behind holds the output open).
     */
    CompletableFuture<Integer> exit() {
        return process.onExit().thenCompose(ended -> log.finished().copy()
                .completeOnTimeout(null, DRAIN_SECONDS, TimeUnit.SECONDS)
                .thenApply(drained -> ended.exitValue()));
    }

    /** Stops the replica and everything it started; returns once all of it is gone. */
    void stop(Duration grace) {
        ProcessGroups.stopAll(List.of(process.pid()), grace);
    }

    /** Stops these replicas side by side, all within one grace period. */
    static void stopAll(Collection<ReplicaProcess> replicas, Duration grace) {
        if (!replicas.isEmpty()) {
            ProcessGroups.stopAll(replicas.stream().map(r -> r.process.pid()).toList(), grace);
        }
    }

    /**
     * Stops what is left of replicas from a previous run of the service, all at once. A live process
     * under a recorded pid with another start time is a stranger that reused the pid: left alone.
     */
    static void stopLeftovers(Collection<ProcessRef> refs, Duration grace) {
        List<Long> ours = refs.stream().filter(ref -> !pidReused(ref)).map(ProcessRef::pid).toList();
        if (!ours.isEmpty()) {
            ProcessGroups.stopAll(ours, grace);
        }
    }

    private static boolean pidReused(ProcessRef ref) {
        return ProcessHandle.of(ref.pid())
                .map(handle -> ref.startedAt() != null
                        && !ref.startedAt().equals(handle.info().startInstant().orElse(null)))
                .orElse(false);
    }

    /** A process as recorded on disk: its pid, and its start time to tell it from a later one with the same pid. */
    record ProcessRef(long pid, Instant startedAt) {
    }
}
