package io.paddlejobs.job;

import io.paddlejobs.planning.Role;
import java.time.Instant;

/**
 * One replica as it stands.
 *
 * @param exitCode the process's exit code once it has exited, else {@code null}
 * @param reason   why it is not running, in words, with exit codes in {@link ExitCodes}' wording
 *                 ({@code killed by signal 9 (SIGKILL: killed, often for running out of memory)})
 */
public record ReplicaStatus(
        String id,
        Role role,
        int index,
        String host,
        ReplicaState state,
        int restarts,
        Integer exitCode,
        String reason,
        Instant startedAt,
        Instant finishedAt) {
}
