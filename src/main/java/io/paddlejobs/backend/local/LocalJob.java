package io.paddlejobs.backend.local;

import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * One job's state on this machine, and the rules that move it: every trainer exits 0 ->
 * {@code Succeeded}; any replica fails -> {@code Failed}, naming it; cancel -> {@code Cancelled}.
 * All changes go through this object's lock; readers get an immutable snapshot. Both listeners are
 * called under that lock, so they must return at once.
 */
final class LocalJob {

    private final JobKey key;
    private final Clock clock;
    /** Told of each change the job's record must keep. */
    private final Consumer<LocalJob> onChange;
    /** Told of each change a reader can see, kept or not (a queue position is shown, not written). */
    private final Consumer<JobKey> onShown;
    private JobPlan plan;
    private LocalReplicas replicas;
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

    LocalJob(JobPlan plan, Instant createdAt, Clock clock, Consumer<LocalJob> onChange, Consumer<JobKey> onShown) {
        this.plan = plan;
        this.key = new JobKey(plan.namespace(), plan.name());
        this.createdAt = createdAt;
        this.clock = clock;
        this.onChange = onChange;
        this.onShown = onShown;
        this.replicas = new LocalReplicas(plan);
        publish();
    }

    /** A job read back from its record, with its plan worked out again from the record's request. */
    static LocalJob restore(JobPlan plan, JobRecord record, Clock clock, Consumer<LocalJob> onChange,
                            Consumer<JobKey> onShown) {
        JobStatus status = record.status();
        LocalJob job = new LocalJob(plan, status.createdAt(), clock, onChange, onShown);
        synchronized (job) {
            job.port = record.port();
            job.phase = status.phase();
            job.reason = status.reason();
            job.message = status.message();
            job.startedAt = status.startedAt();
            job.finishedAt = status.finishedAt();
            job.replicas.restore(status.replicas(), record.processes());
            job.publish();
        }
        return job;
    }

    JobKey key() {
        return key;
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

    /** Where a waiting job stands in the queue, counting from 1. */
    synchronized void showQueuePosition(int position) {
        if (phase == JobPhase.PENDING && (queuePosition == null || queuePosition != position)) {
            queuePosition = position;
            reason = "Queued";
            message = "waiting for a free slot: position %d in the queue (paddlejobs.local.max-running-jobs)"
                    .formatted(position);
            // Shown, not written: positions change with every start and cancel, and are worked out again on load.
            publish(false);
        }
    }

    /**
     * Called once the job has its ports: the plan now says where every replica listens. Returns
     * false when the job ended meanwhile (cancelled on its way out of the queue): nothing is to start.
     */
    synchronized boolean placed(JobPlan placedPlan) {
        if (phase.isFinished()) {
            return false;
        }
        this.plan = placedPlan;
        this.port = placedPlan.ports().first();
        this.starting = true;
        replicas = new LocalReplicas(placedPlan);
        queuePosition = null;
        reason = null;
        message = null;
        publish();
        return true;
    }

    /**
     * A replica's process is running. Returns false when the job ended while it was being
     * started (another replica failed first): the caller must stop it at once.
     */
    synchronized boolean replicaStarted(Replica replica, ReplicaProcess process) {
        boolean wanted = !phase.isFinished();
        Instant now = clock.instant();
        replicas.get(replica.id()).started(process, now, wanted);
        // A fast replica may already have exited: "started" means none is left pending.
        if (wanted && startedAt == null && replicas.nonePending()) {
            startedAt = now;
            phase = JobPhase.RUNNING;
        }
        publish();
        return wanted;
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
        LocalReplicas.Entry r = replicas.get(id);
        boolean counts = r.exited(exitCode, clock.instant());
        if (!counts || phase.isFinished()) {
            publish(); // we stopped it, so its exit is no failure; or the job has ended already
            return List.of();
        }
        if (exitCode != 0) {
            return finish(JobPhase.FAILED, r.failureReason(), r.failureMessage());
        }
        if (replicas.everyTrainerSucceeded()) {
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
            startedAt = replicas.firstStart();
        }
        List<ReplicaProcess> toStop = replicas.stopActive();
        publish();
        return toStop;
    }

    synchronized JobRecord record() {
        return new JobRecord(plan.spec(), plan.namespace(), port, snapshot.status(), replicas.processRefs());
    }

    private void publish() {
        publish(true);
    }

    private void publish(boolean write) {
        List<ReplicaStatus> statuses = replicas.statuses();
        JobStatus status = new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition,
                LocalReplicas.counts(plan.pservers(), statuses), LocalReplicas.counts(plan.trainers(), statuses),
                statuses);
        snapshot = new Job(plan, status);
        if (write && !starting) {
            onChange.accept(this);
        }
        onShown.accept(key);
    }
}
