package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether this service can start processes, for readiness: down from the moment starting a replica
 * failed because the machine (or this user) had no process left to give ({@code EAGAIN}, or no
 * thread for its log), until one starts again. A job that held every process ID would otherwise
 * leave the service up and failing every start; an orchestrator then sends work elsewhere. While
 * down, each look tries one short process itself, so it is up again as soon as processes are, not
 * at the next job's start. Up, a look costs nothing.
 */
final class SpawnHealth implements HealthIndicator {

    private final Clock clock;
    private final List<String> probe;
    private volatile String failure;
    private volatile Instant since;

    SpawnHealth(Clock clock) {
        this.clock = clock;
        Path program = HostPrograms.find("true");
        this.probe = List.of(program == null ? "true" : program.toString());
    }

    /** A process started. */
    void started() {
        failure = null;
    }

    /** A process did not start; only a failure for want of processes counts. */
    void failed(Throwable e) {
        if (outOfProcesses(e)) {
            since = clock.instant();
            failure = e.getMessage();
        }
    }

    @Override
    public Health health() {
        if (failure != null && probeStarts()) {
            failure = null;
        }
        String why = failure;
        return why == null ? Health.up().build() : Health.down().withDetail("error", "cannot start processes: " + why)
                .withDetail("since", String.valueOf(since)).build();
    }

    /** {@code EAGAIN} from {@code fork}/{@code posix_spawn} ("error=11"), or no native thread for a replica's log. */
    static boolean outOfProcesses(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            String message = String.valueOf(cause.getMessage());
            if ((cause instanceof IOException && (message.contains("error=11,")
                    || message.contains("Resource temporarily unavailable")))
                    || (cause instanceof OutOfMemoryError && message.contains("unable to create native thread"))) {
                return true;
            }
        }
        return false;
    }

    private boolean probeStarts() {
        try {
            Process process = new ProcessBuilder(probe).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return true;
        } catch (IOException e) {
            failed(e);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
