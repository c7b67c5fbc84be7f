package io.paddlejobs.backend.local;

import io.paddlejobs.planning.PaddleEnv;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One replica as an OS process: {@code sh -c <entry point>} with the planned environment, its
 * output appended to a log file. Stopping it stops everything it started ({@link ProcessGroups}),
 * since the shell's children (the user's program) would otherwise outlive it.
 */
final class ReplicaProcess {

    private final Process process;

    private ReplicaProcess(Process process) {
        this.process = process;
    }

    static ReplicaProcess start(String entryPoint, Map<String, String> env, Path workDir, Path logFile)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ProcessGroups.command(entryPoint))
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

    /** Stops the replica and everything it started; returns once all of it is gone. */
    void stop(Duration grace) {
        ProcessGroups.stop(process.pid(), grace);
    }

    /**
     * Stops what is left of a replica from a previous run of the service. A live process under
     * the recorded pid with another start time is a stranger that reused the pid: left alone.
     */
    static void stopLeftover(ProcessRef ref, Duration grace) {
        boolean pidReused = ProcessHandle.of(ref.pid())
                .map(handle -> ref.startedAt() != null
                        && !ref.startedAt().equals(handle.info().startInstant().orElse(null)))
                .orElse(false);
        if (!pidReused) {
            ProcessGroups.stop(ref.pid(), grace);
        }
    }

    /** A process as recorded on disk: its pid, and its start time to tell it from a later one with the same pid. */
    record ProcessRef(long pid, Instant startedAt) {
    }
}
