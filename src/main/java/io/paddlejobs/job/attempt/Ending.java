package io.paddlejobs.job.attempt;

import io.paddlejobs.planning.Role;

/**
 * What ended an attempt, as its backend saw it and in no backend's terms: the backend says what
 * happened, {@link FailureCause} and {@link AttemptLedger} decide what it means. A replica's exit is
 * carried as its code, never read back out of the job's message.
 *
 * @param kind     what sort of ending it was
 * @param role     the replica that ended it, when one did ({@code null} for a node lost, a cancel, ...)
 * @param index    that replica's index in its role; {@code null} with the role
 * @param exitCode that replica's exit code, 128 + n for a kill by signal n, when it has one
 * @param reason   the job's reason for it ({@code TrainerFailed}, {@code NodeFailed}, {@code Stalled})
 * @param message  the same in words a user can act on: what a restart's message starts with
 */
public record Ending(Kind kind, Role role, Integer index, Integer exitCode, String reason, String message) {

    /** The sorts of endings every backend reports; each backend's own reasons map onto these. */
    public enum Kind {
        /** Every trainer finished: no failure. */
        SUCCEEDED,
        /** Stopped on purpose, by a cancel or a time limit ({@code max_run_time}, Slurm's): no failure of the attempt, never retried. */
        STOPPED,
        /** A replica's own exit (a crash and a kill by signal included: the code tells them apart), or a failure the backend blames on no one outside. */
        EXITED,
        /** Something outside the program ended it: a node lost, an eviction or preemption, out of memory, the service's restart. */
        FROM_OUTSIDE,
        /** No trainer gave a sign of life for {@code stall_timeout}, and {@code restart_on} makes that a failure. */
        STALLED
    }

    public static Ending succeeded(String reason, String message) {
        return new Ending(Kind.SUCCEEDED, null, null, null, reason, message);
    }

    public static Ending stopped(String reason, String message) {
        return new Ending(Kind.STOPPED, null, null, null, reason, message);
    }

    /** Replica {@code role}/{@code index} exited with {@code exitCode}. */
    public static Ending exited(Role role, int index, int exitCode, String reason, String message) {
        return new Ending(Kind.EXITED, role, index, exitCode, reason, message);
    }

    /** The attempt failed with no replica's exit to tell how: taken as the program's own. */
    public static Ending failed(String reason, String message) {
        return new Ending(Kind.EXITED, null, null, null, reason, message);
    }

    public static Ending fromOutside(String reason, String message) {
        return new Ending(Kind.FROM_OUTSIDE, null, null, null, reason, message);
    }

    /** From outside, with the replica it hit and the code it ended with ({@code 137} for an out-of-memory kill). */
    public static Ending fromOutside(Role role, int index, Integer exitCode, String reason, String message) {
        return new Ending(Kind.FROM_OUTSIDE, role, index, exitCode, reason, message);
    }

    /** @param silence which trainers were silent since when ({@link StallWatch#silence}) */
    public static Ending stalled(String silence) {
        return new Ending(Kind.STALLED, null, null, null, StallWatch.STALLED, silence);
    }

    /** The signal that killed the replica ({@code exitCode} 128 + n), or {@code null} if it exited on its own or none did. */
    public Integer signal() {
        return exitCode != null && exitCode > 128 && exitCode < 160 ? exitCode - 128 : null;
    }
}
