package io.paddlejobs.job;

import java.time.Instant;

/**
 * One run of a job's replicas: the first, and one per restart. A job with no restarts to spend shows none.
 *
 * @param number    0 for the first run, then the restart it is ({@code PADDLE_JOB_RESTART_COUNT})
 * @param startedAt when its replicas were started
 * @param finishedAt when it ended; {@code null} while it runs
 * @param reason    why it ended, in the job's own words ({@code TrainerFailed}, {@code Completed}); {@code null} while it runs
 * @param message   the same in words a user can act on
 */
public record Attempt(int number, Instant startedAt, Instant finishedAt, String reason, String message) {

    /** Attempt {@code number}, begun at {@code at} and running. */
    public static Attempt begun(int number, Instant at) {
        return new Attempt(number, at, null, null, null);
    }

    /** This attempt, ended now for this reason. */
    public Attempt ended(Instant at, String why, String words) {
        return new Attempt(number, startedAt, at, why, words);
    }
}
