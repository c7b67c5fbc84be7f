package io.paddlejobs.backend.local.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether this service can start processes, for readiness. A job that held every process ID the
 * machine (or the service's user) has would otherwise leave the service up while every start fails
 * and its own threads die; an orchestrator, told, sends work elsewhere. Down from a replica's start
 * that failed for want of processes ({@code EAGAIN}, or no thread for its log), and whenever one
 * short process of its own ({@code true}) does not start; looked at again at most every few
 * seconds while up, at each look while down, so that readiness comes back as soon as processes do.
 */
public final class SpawnHealth implements HealthIndicator {

    /** How long a look that found processes starting stands. */
    private static final Duration UP_FOR = Duration.ofSeconds(5);

    private final Clock clock;
    private final List<String> probe;
    private volatile String failure;
    private volatile Instant since;
    private volatile Instant lookedAt = Instant.MIN;

    public SpawnHealth(Clock clock) {
        this.clock = clock;
        Path program = HostPrograms.find("true");
        this.probe = List.of(program == null ? "true" : program.toString());
    }

    /** A replica's process started. */
    public void started() {
        failure = null;
    }

    /** A replica's process did not start; only a failure for want of processes counts. */
    public void failed(Throwable e) {
        if (outOfProcesses(e)) {
            since = clock.instant();
            failure = e.getMessage();
        }
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        if (failure != null || !now.isBefore(lookedAt.plus(UP_FOR))) {
            lookedAt = now;
            if (probeStarts()) {
                failure = null;
            }
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
            return !outOfProcesses(e); // another failure (the program is gone) says nothing of processes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failure == null;
        }
    }
}
