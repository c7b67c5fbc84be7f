package io.paddlejobs.backend.local;

import io.paddlejobs.planning.PaddleEnv;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One replica as an OS process: {@code sh -c <entry point>} with the planned environment, its
 * output appended to a log file. Stopping it stops its whole process tree, since the shell's
 * children (the user's program) would otherwise outlive it.
 */
final class ReplicaProcess {

    private final Process process;

    private ReplicaProcess(Process process) {
        this.process = process;
    }

    static ReplicaProcess start(String entryPoint, Map<String, String> env, Path workDir, Path logFile)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", entryPoint)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> environment = builder.environment();
        // The service's own PADDLE_* settings must not leak into a job: they mean other things
        // in other Paddle generations, and only the planned values may wire replicas together.
        environment.keySet().removeIf(name -> name.startsWith("PADDLE_") || PaddleEnv.isReserved(name));
        environment.putAll(env);
        return new ReplicaProcess(builder.start());
    }

    ProcessRef ref() {
        return new ProcessRef(process.pid(), process.toHandle().info().startInstant().orElse(null));
    }

    /** Completes with the exit code when the process ends (128 + n when killed by signal n). */
    CompletableFuture<Integer> exit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /** SIGTERM to the tree, then SIGKILL to whatever is left after the grace period; returns once all are gone. */
    void stop(Duration grace) {
        stopTree(process.toHandle(), grace);
    }

    /**
     * Stops a process left from a previous run of the service, if the pid still names that same
     * process (its start time matches), so that a reused pid never hits a stranger.
     */
    static void stopLeftover(ProcessRef ref, Duration grace) {
        ProcessHandle.of(ref.pid())
                .filter(handle -> ref.startedAt() == null
                        || ref.startedAt().equals(handle.info().startInstant().orElse(null)))
                .ifPresent(handle -> stopTree(handle, grace));
    }

    private static void stopTree(ProcessHandle root, Duration grace) {
        List<ProcessHandle> tree = new ArrayList<>(root.descendants().toList());
        tree.add(root);
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle handle : tree) {
            long left = deadline - System.nanoTime();
            try {
                handle.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
            } catch (Exception timedOutOrInterrupted) {
                handle.destroyForcibly();
            }
        }
        tree.forEach(handle -> handle.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> handle).join());
    }

    /** A process as recorded on disk: its pid, and its start time to tell it from a later one with the same pid. */
    record ProcessRef(long pid, Instant startedAt) {
    }
}
