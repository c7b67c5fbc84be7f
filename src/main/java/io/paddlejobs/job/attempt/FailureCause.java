package io.paddlejobs.job.attempt;

import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.planning.RestartOn;
import java.util.Optional;

/**
 * How an attempt's failure came about, for {@code restart_on}, the same on every backend: a replica's
 * own exit is the program's ({@link ExitCodes#cause}: a kill by SIGKILL, SIGTERM, SIGHUP or SIGINT came
 * from outside it), what the backend saw come from outside is infrastructure, and a stall is its own cause.
 */
public final class FailureCause {

    private FailureCause() {
    }

    /** The cause, or empty for an ending that is no failure (a success, a cancel, a time limit): that is never retried. */
    public static Optional<RestartOn.Cause> of(Ending ending) {
        return switch (ending.kind()) {
            case SUCCEEDED, STOPPED -> Optional.empty();
            case STALLED -> Optional.of(RestartOn.Cause.STALL);
            case FROM_OUTSIDE -> Optional.of(RestartOn.Cause.INFRASTRUCTURE);
            case EXITED -> Optional.of(ending.exitCode() == null ? RestartOn.Cause.EXIT : ExitCodes.cause(ending.exitCode()));
        };
    }
}
