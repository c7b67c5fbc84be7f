package io.paddlejobs.job.attempt;

import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.JobRequest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * A failed attempt kept for the request's {@code debug_hold}, the same on every backend that holds: instead of
 * being restarted or ended, the attempt's replicas that still run are kept, the one that failed keeps its
 * directory, and the job reads {@code Running}, reason {@link #HELD}, until {@code until}; then what the ending
 * would have led to at once ({@link AttemptLedger#after}) follows. A cancel ends the hold as it ends any attempt.
 *
 * @param ending what failed the attempt: applied when the hold ends
 * @param until  when the hold ends
 */
public record DebugHold(Ending ending, Instant until) {

    /** The reason a held job shows while it is {@code Running}. */
    public static final String HELD = "Held";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    /**
     * The hold a failure starts, where the request asks for one: only a failure ({@link FailureCause}) is held,
     * never a success, a cancel or a time limit.
     */
    public static Optional<DebugHold> of(JobRequest spec, Ending ending, Instant now) {
        var hold = spec.lifecycle().debugHold();
        if (hold == null || FailureCause.of(ending).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DebugHold(ending, now.plus(hold)));
    }

    /** Whether the hold is over at {@code now}. */
    public boolean over(Instant now) {
        return !now.isBefore(until);
    }

    /**
     * The held job's message: what failed, until when it is held, how to look inside, and what follows.
     *
     * @param failure what failed, in words ({@code trainer-1 exited with code 3})
     * @param job     the job's name, for the command to copy
     * @param next    what the ending leads to once the hold is over
     */
    public String message(String failure, String job, RestartDecision next) {
        String exec = ending.role() == null ? "paddle-jobs exec " + job + " --role trainer --index 0 -- sh"
                : "paddle-jobs exec %s --role %s --index %d -- sh".formatted(job, ending.role().label(), ending.index());
        String then = next instanceof RestartDecision.Restart restart
                ? "then the job restarts (restart %d of the job's max_restarts)".formatted(restart.restart())
                : "then the job fails";
        return ("%s; held until %s (debug_hold) with every replica that still runs: look inside with %s (POST"
                + " /jobs/%s/exec), cancel to end the hold; %s").formatted(failure, TIME.format(until), exec, job, then);
    }
}
