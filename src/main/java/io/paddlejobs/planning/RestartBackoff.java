package io.paddlejobs.planning;

import java.time.Duration;

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
}
