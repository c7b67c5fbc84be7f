package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.RolePlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The replicas of one {@link LocalJob}, in plan order: each one's state, its process while it has one,
 * and the reference to it that the job's record keeps. Not thread-safe: its job's lock guards it.
 */
final class LocalReplicas {

    /** One replica's mutable record. */
    static final class Entry {
        final Replica replica;
        ReplicaState state = ReplicaState.PENDING;
        Integer exitCode;
        String reason;
        Instant startedAt;
        Instant finishedAt;
        ReplicaProcess process;
        ReplicaProcess.ProcessRef ref;
        /** Where its entry point runs, once looked up after its start ({@link ReplicaProcessTree}); shown while it runs. */
        ReplicaProcessTree.Ids pids;
        /** How its process of this attempt was started, kept after it ends: a held job's commands run as it ran. */
        ReplicaProcess.Launch launch;

        private Entry(Replica replica) {
            this.replica = replica;
        }

        /** Its process runs: as wanted, or (when its job ended while it was started) only until it is stopped. */
        void started(ReplicaProcess started, Instant at, boolean wanted) {
            ref = started.ref();
            launch = started.launch();
            pids = null;
            startedAt = at;
            state = wanted ? ReplicaState.RUNNING : ReplicaState.STOPPED;
            process = wanted ? started : null;
        }

        /**
         * Its process ended, having left {@code lastWords} in its log; returns false when it was stopped on
         * purpose, which is no outcome of its own.
         */
        boolean exited(int code, Optional<String> lastWords, Instant at) {
            exitCode = code;
            finishedAt = at;
            process = null;
            pids = null;
            if (state == ReplicaState.STOPPED) {
                return false;
            }
            state = code == 0 ? ReplicaState.SUCCEEDED : ReplicaState.FAILED;
            reason = ExitCodes.describe(code, lastWords);
            return true;
        }

        String failureReason() {
            return replica.role() == Role.TRAINER ? "TrainerFailed" : "PserverFailed";
        }

        /**
         * Why its job's attempt failed, as the job's message says it: which replica, how, and where its log
         * is (that attempt's: a restart keeps it apart).
         */
        String failureMessage(int attempt) {
            return "%s %s; the other replicas were stopped. See its log: role=%s&index=%d&attempt=%d"
                    .formatted(replica.id(), reason, replica.role().label(), replica.index(), attempt);
        }

        boolean isActive() {
            return state == ReplicaState.RUNNING || state == ReplicaState.PENDING;
        }
    }

    private final Map<String, Entry> byId = new LinkedHashMap<>();

    /** Every replica of the plan, pending. */
    LocalReplicas(JobPlan plan) {
        plan.replicas().forEach(replica -> byId.put(replica.id(), new Entry(replica)));
    }

    Entry get(String id) {
        return byId.get(id);
    }

    /** Takes the replicas' states from a record read back from disk. */
    void restore(List<ReplicaStatus> statuses, Map<String, ReplicaProcess.ProcessRef> processes) {
        for (ReplicaStatus status : statuses) {
            Entry entry = byId.get(status.id());
            if (entry != null) {
                entry.state = status.state();
                entry.exitCode = status.exitCode();
                entry.reason = status.reason();
                entry.startedAt = status.startedAt();
                entry.finishedAt = status.finishedAt();
                entry.ref = processes.get(status.id());
            }
        }
    }

    boolean nonePending() {
        return byId.values().stream().noneMatch(entry -> entry.state == ReplicaState.PENDING);
    }

    boolean everyTrainerSucceeded() {
        return byId.values().stream().filter(entry -> entry.replica.role() == Role.TRAINER)
                .allMatch(entry -> entry.state == ReplicaState.SUCCEEDED);
    }

    /** When the first replica started, or {@code null} if none has. */
    Instant firstStart() {
        return byId.values().stream().map(entry -> entry.startedAt).filter(Objects::nonNull)
                .min(Instant::compareTo).orElse(null);
    }

    /** Marks every replica still running or pending as stopped; returns the processes to stop. */
    List<ReplicaProcess> stopActive() {
        List<ReplicaProcess> toStop = new ArrayList<>();
        for (Entry entry : byId.values()) {
            if (entry.isActive()) {
                entry.state = ReplicaState.STOPPED;
                if (entry.process != null) {
                    toStop.add(entry.process);
                }
            }
        }
        return toStop;
    }

    /**
     * @param restarts the job's restarts so far: each one started every replica again
     */
    List<ReplicaStatus> statuses(GpuAssignment gpus, int restarts) {
        return byId.values().stream().map(e -> {
            ReplicaProcessTree.Ids shown = e.state == ReplicaState.RUNNING ? e.pids : null;
            return new ReplicaStatus(e.replica.id(), e.replica.role(), e.replica.index(), e.replica.host(),
                    e.state, e.startedAt == null ? 0 : restarts, e.exitCode, e.reason, e.startedAt, e.finishedAt,
                    gpus.visibleIds(e.replica.id()), shown == null ? null : shown.pid(),
                    shown == null ? null : shown.namespacePid());
        }).toList();
    }

    /** The processes of the replicas that run now, by replica: what a stack dump looks at. */
    Map<Replica, ReplicaProcess> running() {
        Map<Replica, ReplicaProcess> running = new LinkedHashMap<>();
        byId.values().stream().filter(e -> e.state == ReplicaState.RUNNING && e.process != null)
                .forEach(e -> running.put(e.replica, e.process));
        return running;
    }

    /** How the replicas of one role stand, from their statuses. */
    static RoleCounts counts(RolePlan role, List<ReplicaStatus> statuses) {
        return RoleCounts.of(role.count(), statuses.stream().filter(s -> s.role() == role.role()).toList());
    }

    /** By replica id, the processes that were started: what a record keeps to stop leftovers after a crash. */
    Map<String, ReplicaProcess.ProcessRef> processRefs() {
        Map<String, ReplicaProcess.ProcessRef> refs = new LinkedHashMap<>();
        byId.forEach((id, entry) -> {
            if (entry.ref != null) {
                refs.put(id, entry.ref);
            }
        });
        return refs;
    }
}
