package io.paddlejobs.planning;

import java.time.Duration;
import java.util.Optional;

/**
 * How long a failed job waits before it is started again: {@code base} before the first restart, doubling
 * with each one after it, never more than {@code max} ({@code paddlejobs.restarts.*}). The wait lets a
 * lost node come back or a transient fault pass, and keeps a job that always fails from starting in a loop.
 */
public record RestartBackoff(Duration base, Duration max) {

    /** The wait before restart {@code restart} (1 for the first). */
    public Duration before(int restart) {
        Duration wait = base;
        for (int i = 1; i < restart && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(max) > 0 ? max : wait;
    }

    /** The most the first {@code restarts} restarts may wait in all. */
    public Duration totalBefore(int restarts) {
        Duration total = Duration.ZERO;
        for (int restart = 1; restart <= restarts; restart++) {
            total = total.plus(before(restart));
        }
        return total;
    }

    /**
     * Where {@code max_run_time} counts from a job's first start, backoffs included (Slurm), and its restarts may
     * wait a tenth of it or more: what to tell its user, who would otherwise find a late attempt cut short (at
     * worst to a minute) without a word. Below a tenth the waits are noise beside the job's run time.
     */
    public Optional<String> eatsIntoMaxRunTime(Duration maxRunTime, int maxRestarts) {
        if (maxRunTime == null || maxRestarts <= 0) {
            return Optional.empty();
        }
        Duration waits = totalBefore(maxRestarts);
        if (waits.multipliedBy(10).compareTo(maxRunTime) < 0) {
            return Optional.empty();
        }
        return Optional.of(("max_run_time (%s) counts from the job's first start here, the waits before restarts included:"
                + " its %d restarts may wait up to %s of it (paddlejobs.restarts.backoff, doubling up to max-backoff),"
                + " and a late attempt gets what is left, at least a minute").formatted(words(maxRunTime), maxRestarts,
                words(waits)));
    }

    /** {@code 1h30m}, {@code 45s}: as requests write durations. */
    private static String words(Duration duration) {
        StringBuilder out = new StringBuilder();
        if (duration.toHours() > 0) {
            out.append(duration.toHours()).append('h');
        }
        if (duration.toMinutesPart() > 0) {
            out.append(duration.toMinutesPart()).append('m');
        }
        if (duration.toSecondsPart() > 0 || out.isEmpty()) {
            out.append(duration.toSecondsPart()).append('s');
        }
        return out.toString();
    }
}
