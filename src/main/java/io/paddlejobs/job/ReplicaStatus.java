package io.paddlejobs.job;

import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.List;

/**
 * One replica as it stands.
 *
 * @param exitCode the process's exit code once it has exited, else {@code null}
 * @param reason   why it is not running, in words, with exit codes in {@link ExitCodes}' wording
 *                 ({@code killed by signal 9 (SIGKILL: killed, often for running out of memory)})
 * @param gpus     the GPUs this replica was given, as its {@code CUDA_VISIBLE_DEVICES} names them (UUIDs,
 *                 or indexes where only those are known); empty where none, or where the backend's own
 *                 scheduler places them (Kubernetes, Slurm)
 * @param pid      while it runs, where known: the host's process id of its entry point's process ({@code sh -c
 *                 <entry_point>}, which runs the user's program and is the parent of all it starts), for a
 *                 profiler or debugger on that machine; {@code null} where the backend cannot see its processes
 * @param namespacePid the same process's id inside the PID namespace the replica runs in (the local backend's
 *                 sandbox), which is what the replica's own programs see; {@code null} where it runs in none
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
        Instant finishedAt,
        List<String> gpus,
        Long pid,
        Long namespacePid) {

    public ReplicaStatus {
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
    }

    /** A replica whose processes are not known here. */
    public ReplicaStatus(String id, Role role, int index, String host, ReplicaState state, int restarts,
                         Integer exitCode, String reason, Instant startedAt, Instant finishedAt, List<String> gpus) {
        this(id, role, index, host, state, restarts, exitCode, reason, startedAt, finishedAt, gpus, null, null);
    }

    /**
     * This replica in a job that was restarted {@code jobRestarts} times: each restart started every replica
     * again, so it counts at least as many restarts (a backend that restarts replicas in place may count more).
     */
    public ReplicaStatus restartedWithJob(int jobRestarts) {
        return restarts >= jobRestarts ? this : new ReplicaStatus(id, role, index, host, state, jobRestarts, exitCode,
                reason, startedAt, finishedAt, gpus, pid, namespacePid);
    }

    /** A replica whose GPUs the backend does not hand out itself. */
    public ReplicaStatus(String id, Role role, int index, String host, ReplicaState state, int restarts,
                         Integer exitCode, String reason, Instant startedAt, Instant finishedAt) {
        this(id, role, index, host, state, restarts, exitCode, reason, startedAt, finishedAt, List.of());
    }
}
