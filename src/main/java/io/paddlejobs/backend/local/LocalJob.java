package io.paddlejobs.backend.local;

import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One job's state on this machine, and the rules that move it: every trainer exits 0 ->
 * {@code Succeeded}; any replica fails -> {@code Failed}, naming it; cancel -> {@code Cancelled}.
 * All changes go through this object's lock; readers get an immutable snapshot.
 */
final class LocalJob {

    private final Clock clock;
    private final Consumer<LocalJob> onChange;
    private final Map<String, ReplicaRecord> replicas = new LinkedHashMap<>();
    private JobPlan plan;
    private JobPhase phase = JobPhase.PENDING;
    private String reason;
    private String message;
    private final Instant createdAt;
    private Instant startedAt;
    private Instant finishedAt;
    private Integer queuePosition;
    /** The first port, once the backend has allocated it. */
    private Integer port;
    private volatile Job snapshot;
    /** While replicas are being started, changes are published but written once, at the end. */
    private boolean starting;

    /** One replica's mutable record; its process, while it has one. */
    static final class ReplicaRecord {
        final Replica replica;
        ReplicaState state = ReplicaState.PENDING;
        Integer exitCode;
        String reason;
        Instant startedAt;
        Instant finishedAt;
        ReplicaProcess process;
        ReplicaProcess.ProcessRef ref;

        ReplicaRecord(Replica replica) {
            this.replica = replica;
        }
    }

    LocalJob(JobPlan plan, Instant createdAt, Clock clock, Consumer<LocalJob> onChange) {
        this.plan = plan;
        this.createdAt = createdAt;
        this.clock = clock;
        this.onChange = onChange;
        resetReplicas(plan);
        publish();
    }

    /** A job read back from its record, with its plan worked out again from the record's request. */
    static LocalJob restore(JobPlan plan, JobRecord record, Clock clock, Consumer<LocalJob> onChange) {
        JobStatus status = record.status();
        LocalJob job = new LocalJob(plan, status.createdAt(), clock, onChange);
        synchronized (job) {
            job.port = record.port();
            job.phase = status.phase();
            job.reason = status.reason();
            job.message = status.message();
            job.startedAt = status.startedAt();
            job.finishedAt = status.finishedAt();
            for (ReplicaStatus replica : status.replicas()) {
                ReplicaRecord r = job.replicas.get(replica.id());
                if (r != null) {
                    r.state = replica.state();
                    r.exitCode = replica.exitCode();
                    r.reason = replica.reason();
                    r.startedAt = replica.startedAt();
                    r.finishedAt = replica.finishedAt();
                    r.ref = record.processes().get(replica.id());
                }
            }
            job.publish();
        }
        return job;
    }

    JobKey key() {
        return new JobKey(plan.namespace(), plan.name());
    }

    Job snapshot() {
        return snapshot;
    }

    synchronized JobPhase phase() {
        return phase;
    }

    synchronized JobPlan plan() {
        return plan;
    }

    synchronized void queuedAt(Integer position) {
        if (phase == JobPhase.PENDING && !java.util.Objects.equals(position, queuePosition)) {
            queuePosition = position;
            reason = position == null ? null : "Queued";
            message = position == null ? null
                    : "waiting for a free slot: position %d in the queue (paddlejobs.local.max-running-jobs)".formatted(position);
            // Shown, not written: positions change with every start and cancel, and are worked out again on load.
            publish(false);
        }
    }

    /** Called once the job has its ports: the plan now says where every replica listens. */
    synchronized void placed(JobPlan placedPlan) {
        this.plan = placedPlan;
        this.port = placedPlan.ports().first();
        this.starting = true;
        resetReplicas(placedPlan);
        queuePosition = null;
        reason = null;
        message = null;
        publish();
    }

    /**
     * A replica's process is running. Returns false when the job ended while it was being
     * started (another replica failed first): the caller must stop it at once.
     */
    synchronized boolean replicaStarted(Replica replica, ReplicaProcess process) {
        ReplicaRecord r = replicas.get(replica.id());
        r.ref = process.ref();
        r.startedAt = clock.instant();
        if (phase.isFinished()) {
            r.state = ReplicaState.STOPPED;
            publish();
            return false;
        }
        r.process = process;
        r.state = ReplicaState.RUNNING;
        // A fast replica may already have exited: "started" means none is left pending.
        if (startedAt == null && replicas.values().stream().noneMatch(x -> x.state == ReplicaState.PENDING)) {
            startedAt = r.startedAt;
            if (phase == JobPhase.PENDING) {
                phase = JobPhase.RUNNING;
            }
        }
        publish();
        return true;
    }

    /** Every replica has been started (or the start failed): write the record once. */
    synchronized void startFinished() {
        starting = false;
        publish();
    }

    /**
     * A replica's process ended. Returns the processes to stop as a result (the rest of the job,
     * when this ended it); the caller stops them outside this lock.
     */
    synchronized List<ReplicaProcess> replicaExited(String id, int exitCode) {
        ReplicaRecord r = replicas.get(id);
        r.exitCode = exitCode;
        r.finishedAt = clock.instant();
        r.process = null;
        if (r.state == ReplicaState.STOPPED) {
            publish(); // we stopped it; its exit is no failure
            return List.of();
        }
        r.state = exitCode == 0 ? ReplicaState.SUCCEEDED : ReplicaState.FAILED;
        r.reason = ExitCodes.describe(exitCode);
        if (phase.isFinished()) {
            publish();
            return List.of();
        }
        if (exitCode != 0) {
            return finish(JobPhase.FAILED, r.replica.role() == Role.TRAINER ? "TrainerFailed" : "PserverFailed",
                    "%s %s; the other replicas were stopped. See its log: role=%s&index=%d"
                            .formatted(r.replica.id(), r.reason, r.replica.role().label(), r.replica.index()));
        }
        boolean allTrainersDone = replicas.values().stream()
                .filter(x -> x.replica.role() == Role.TRAINER).allMatch(x -> x.state == ReplicaState.SUCCEEDED);
        if (allTrainersDone) {
            return finish(JobPhase.SUCCEEDED, "Completed", "every trainer exited 0");
        }
        publish();
        return List.of();
    }

    /** Fails a job that could not start (no ports, a process that would not spawn). */
    synchronized List<ReplicaProcess> failToStart(String why) {
        return finish(JobPhase.FAILED, "StartFailed", why);
    }

    /** Ends the job as given unless it has ended already; returns the processes still to stop. */
    synchronized List<ReplicaProcess> finish(JobPhase finalPhase, String finalReason, String finalMessage) {
        if (phase.isFinished()) {
            return List.of();
        }
        phase = finalPhase;
        reason = finalReason;
        message = finalMessage;
        finishedAt = clock.instant();
        queuePosition = null;
        if (startedAt == null) {
            // Replicas start side by side: a fast one can end the job before the others report in.
            startedAt = replicas.values().stream().map(r -> r.startedAt).filter(java.util.Objects::nonNull)
                    .min(Instant::compareTo).orElse(null);
        }
        List<ReplicaProcess> toStop = new ArrayList<>();
        for (ReplicaRecord r : replicas.values()) {
            if (r.state == ReplicaState.RUNNING || r.state == ReplicaState.PENDING) {
                r.state = ReplicaState.STOPPED;
                if (r.process != null) {
                    toStop.add(r.process);
                }
            }
        }
        publish();
        return toStop;
    }

    synchronized JobRecord record() {
        Map<String, ReplicaProcess.ProcessRef> refs = new LinkedHashMap<>();
        replicas.forEach((id, r) -> {
            if (r.ref != null) {
                refs.put(id, r.ref);
            }
        });
        return new JobRecord(plan.spec(), plan.namespace(), port, snapshot.status(), refs);
    }

    private void resetReplicas(JobPlan newPlan) {
        replicas.clear();
        newPlan.replicas().forEach(replica -> replicas.put(replica.id(), new ReplicaRecord(replica)));
    }

    private void publish() {
        publish(true);
    }

    private void publish(boolean write) {
        List<ReplicaStatus> statuses = replicas.values().stream()
                .map(r -> new ReplicaStatus(r.replica.id(), r.replica.role(), r.replica.index(), r.replica.host(),
                        r.state, 0, r.exitCode, r.reason, r.startedAt, r.finishedAt))
                .toList();
        JobStatus status = new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition,
                RoleCounts.of(plan.pservers().count(), statuses.stream().filter(s -> s.role() == Role.PSERVER).toList()),
                RoleCounts.of(plan.trainers().count(), statuses.stream().filter(s -> s.role() == Role.TRAINER).toList()),
                statuses);
        snapshot = new Job(plan, status);
        if (write && onChange != null && !starting) {
            onChange.accept(this);
        }
    }
}
