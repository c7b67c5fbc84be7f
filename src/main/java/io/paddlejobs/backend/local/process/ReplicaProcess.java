package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.local.JobWorkspace;
import io.paddlejobs.backend.local.sandbox.JobUsers;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 *
 * <p>A replica starts behind a gate: its first process waits for one line on its standard input
 * before it becomes the replica ({@code exec}), and leaves at once when that input ends. The
 * launcher opens the gate ({@link #open}) only once the job's record names the process, so a
 * service killed in between leaves nothing behind (the pipe's end goes with it, and the gate
 * exits): no replica ever runs that a later start of the service cannot find and stop.
 */
public final class ReplicaProcess {

    /** How long the end of a replica waits for the rest of its output to reach the log. */
    private static final long DRAIN_SECONDS = 5;
    /**
     * The gate: reads one line; anything but {@code go} (an end of input included) ends it. Then
     * the replica's own command replaces it, under the same pid, with nothing on its input.
     */
    private static final List<String> GATE = List.of("/bin/sh", "-c",
            "IFS= read -r gate && [ \"$gate\" = go ] && exec \"$@\" </dev/null", "paddle-jobs-gate");

    private final Process process;
    /** Where its output goes; {@code null} for a command run in a held replica ({@link #exec}), read by its caller. */
    private final LogSink log;
    private final Launch launch;

    private ReplicaProcess(Process process, LogSink log, Launch launch) {
        this.process = process;
        this.log = log;
        this.launch = launch;
    }

    /**
     * Where and how one replica runs.
     *
     * @param dirs its directories: it starts in its own working directory
     * @param user who it runs as; null: the service's user
     * @param gpus the indexes of the GPUs the replica was given (the sandbox shows it their device nodes)
     */
    public record Launch(String id, String entryPoint, Map<String, String> env, JobWorkspace.ReplicaDirectories dirs,
                  JobUsers.JobUser user, Path logFile, long maxLogBytes, List<Integer> gpus) {
    }

    /**
     * Spawns the replica behind its closed gate: nothing of the user's runs until {@link #open}, and
     * nothing ever does if this JVM ends first.
     */
    public static ReplicaProcess start(Launch launch, Sandbox sandbox, ReplicaEnvironment environment) throws IOException {
        Process process = spawn(launch, launch.entryPoint(), sandbox, environment);
        try {
            return new ReplicaProcess(process, LogSink.start(process.getInputStream(), launch.logFile(),
                    launch.maxLogBytes(), launch.id()), launch);
        } catch (RuntimeException e) {
            process.destroyForcibly(); // still behind its gate: nothing of the job ran
            throw e;
        }
    }

    /**
     * Spawns {@code command} (a shell command line) behind its closed gate as the replica {@code launch} started
     * was: its environment, working directory, user, GPUs and sandbox (a sandbox of its own, made as the replica's
     * was). Its output is not logged: its caller reads it ({@link #output}).
     */
    public static ReplicaProcess exec(Launch launch, String command, Sandbox sandbox, ReplicaEnvironment environment)
            throws IOException {
        return new ReplicaProcess(spawn(launch, command, sandbox, environment), null, launch);
    }

    private static Process spawn(Launch launch, String command, Sandbox sandbox, ReplicaEnvironment environment)
            throws IOException {
        Map<String, String> env = environment.of(System.getenv(), launch.env(), sandbox.home(launch.dirs().work()));
        Sandbox.Start start = sandbox.start(command, launch.dirs(), launch.user(), env, launch.gpus());
        List<String> gated = new ArrayList<>(GATE);
        gated.addAll(start.command());
        // The gate reads its standard input; what it starts reads /dev/null.
        ProcessBuilder builder = new ProcessBuilder(gated)
                .directory(launch.dirs().work().toFile())
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(start.environment());
        return builder.start();
    }

    /** How it was started. */
    public Launch launch() {
        return launch;
    }

    /** The output of a command run in a held replica ({@link #exec}), standard output and error together. */
    public InputStream output() {
        return process.getInputStream();
    }

    /**
     * Lets the replica run: call only once what identifies it ({@link #ref}) is on record. Returns
     * false when the gate could not be opened (the process is gone already): it then never runs.
     */
    public boolean open() {
        try (OutputStream gate = process.getOutputStream()) {
            gate.write("go\n".getBytes(StandardCharsets.US_ASCII));
            return true;
        } catch (IOException gone) {
            return false;
        }
    }

    /** The id of the process the service started: the root of the replica's process tree. */
    public long pid() {
        return process.pid();
    }

    public ProcessRef ref() {
        return new ProcessRef(process.pid(), process.toHandle().info().startInstant().orElse(null));
    }

    /**
     * Completes with the exit code when the process ends (128 + n when killed by signal n), once its
     * output is in the log (or after a few seconds, when something it left behind holds the output open).
     */
    public CompletableFuture<Integer> exit() {
        if (log == null) {
            return process.onExit().thenApply(Process::exitValue);
        }
        return process.onExit().thenCompose(ended -> log.finished().copy()
                .completeOnTimeout(null, DRAIN_SECONDS, TimeUnit.SECONDS)
                .thenApply(drained -> ended.exitValue()));
    }

    /** Stops the replica and everything it started; returns once all of it is gone. */
    public void stop(Duration grace) {
        ProcessGroups.stopAll(List.of(process.pid()), grace);
    }

    /** Stops these replicas side by side, all within one grace period. */
    public static void stopAll(Collection<ReplicaProcess> replicas, Duration grace) {
        if (!replicas.isEmpty()) {
            ProcessGroups.stopAll(replicas.stream().map(r -> r.process.pid()).toList(), grace);
        }
    }

    /**
     * Stops what is left of replicas from a previous run of the service, all at once. A live process
     * under a recorded pid with another start time is a stranger that reused the pid: left alone.
     */
    public static void stopLeftovers(Collection<ProcessRef> refs, Duration grace) {
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
    public record ProcessRef(long pid, Instant startedAt) {
    }
}
