package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.attempt.AttemptLedger;
import io.paddlejobs.job.attempt.DebugHold;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.job.attempt.StallJudge;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One job's state on this machine, and the rules that move it: every trainer exits 0 ->
 * {@code Succeeded}; any replica fails -> {@code Failed}, naming it, unless the job has restarts to
 * spend on that failure ({@link RestartDecision}): then every replica is stopped and the job, still
 * {@code Running} with reason {@code Restarting}, waits until its next attempt; cancel -> {@code Cancelled};
 * every trainer silent for {@code stall_timeout} -> {@code Stalled} ({@link #stallSeen}). With {@code debug_hold},
 * a failed attempt is first held ({@link DebugHold}): still {@code Running}, reason {@code Held}, its replicas that
 * run kept and commands run in them on request ({@link #execStarted}), until the hold is over ({@link #holdOver}).
 * Replicas report in with the attempt they belong to, so that a late exit of an earlier attempt's
 * replica is never taken for the current one's.
 * All changes go through this object's lock; readers get an immutable snapshot. The listeners are
 * called under that lock, so they must return at once.
 *
 * <p>The job also knows which of its processes still exist (stopped or not, until their process
 * groups are gone) and whether replicas are being spawned: what it holds of the machine (GPUs,
 * ports) is handed back only once it has ended and none is left ({@link Listeners#drained}), and
 * its next attempt starts only then ({@link #whenIdle}), so two replicas never hold one device.
 */
public final class LocalJob {

    /**
     * @param changed told of each change the job's record must keep
     * @param shown   told of each change a reader can see, kept or not (a queue position is shown, not written)
     * @param drained told once, when the job has ended and no process of it is left: what it held is free
     */
    public record Listeners(Consumer<LocalJob> changed, Consumer<JobKey> shown, Consumer<LocalJob> drained) {
    }

    private final JobKey key;
    private final Clock clock;
    private final Consumer<LocalJob> onChange;
    private final Consumer<JobKey> onShown;
    private final Consumer<LocalJob> onDrained;
    /** Its processes that may still run: from their spawn until their whole process group is gone. */
    private final Set<ReplicaProcess> alive = new HashSet<>();
    /** What waits for the job to be idle (nothing spawning, no process left): its next attempt. */
    private final List<Runnable> whenIdle = new ArrayList<>();
    private boolean drainedTold;
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
    /** The GPUs its replicas hold, once the scheduler gave them; kept after it ends, for a restart to reuse. */
    private GpuAssignment gpus = GpuAssignment.NONE;
    private volatile Job snapshot;
    /** While replicas are being started, changes are published but written once, at the end. */
    private boolean starting;
    /** The restarts spent (the current attempt's number) and the attempts so far. */
    private AttemptLedger ledger = AttemptLedger.NONE;
    /** When the next attempt starts, while the job waits for it; else {@code null}. */
    private Instant restartAt;
    /** The failed attempt held for {@code debug_hold}, while it is; else {@code null}. */
    private DebugHold hold;
    /** Commands run in its replicas while it is held, by the name its record keeps them under: stopped as the hold ends. */
    private final Map<String, ReplicaProcess> execs = new LinkedHashMap<>();
    private int execsStarted;

    LocalJob(JobPlan plan, Instant createdAt, Clock clock, Listeners listeners) {
        this.plan = plan;
        this.key = new JobKey(plan.namespace(), plan.name());
        this.createdAt = createdAt;
        this.clock = clock;
        this.onChange = listeners.changed();
        this.onShown = listeners.shown();
        this.onDrained = listeners.drained();
        this.replicas = new LocalReplicas(plan);
        publish();
    }

    /** A job read back from its record, with its plan worked out again from the record's request. */
    public static LocalJob restore(JobPlan plan, JobRecord record, Clock clock, Listeners listeners) {
        JobStatus status = record.status();
        LocalJob job = new LocalJob(plan, status.createdAt(), clock, listeners);
        synchronized (job) {
            job.port = record.port();
            job.gpus = record.gpus();
            job.phase = status.phase();
            job.reason = status.reason();
            job.message = status.message();
            job.startedAt = status.startedAt();
            job.finishedAt = status.finishedAt();
            job.replicas.restore(status.replicas(), record.processes());
            job.ledger = AttemptLedger.of(status);
            job.restartAt = record.restartAt();
            job.hold = record.hold();
            job.publish();
        }
        return job;
    }

    public JobKey key() {
        return key;
    }

    public Job snapshot() {
        return snapshot;
    }

    public synchronized JobPhase phase() {
        return phase;
    }

    public synchronized JobPlan plan() {
        return plan;
    }

    /** The current attempt: 0 for the first run, then the restart it is. */
    synchronized int attempt() {
        return ledger.restarts();
    }

    /** When the next attempt starts, while the job waits to be started again; else {@code null}. */
    synchronized Instant restartAt() {
        return restartAt;
    }

    /** Whether a failed attempt of it is held now ({@code debug_hold}). */
    synchronized boolean held() {
        return hold != null;
    }

    /** Whether it waits for a slot: queued, or read back from its record while it waited to be started again. */
    public synchronized boolean waitsForSlot() {
        return phase == JobPhase.PENDING || restartAt != null && !phase.isFinished();
    }

    /** The GPUs each replica holds or last held ({@link GpuAssignment#NONE} before it first started). */
    public synchronized GpuAssignment gpus() {
        return gpus;
    }

    /**
     * Where a waiting job stands in the queue, counting from 1.
     *
     * @param firstWaitsFor the first job in the queue when it waits for resources (this one waits behind it),
     *                      {@code null} when every slot is taken ({@code max-running-jobs})
     */
    public synchronized void showQueuePosition(int position, String firstWaitsFor) {
        show("Queued", firstWaitsFor == null
                ? "waiting for a free slot: position %d in the queue (paddlejobs.local.max-running-jobs)".formatted(position)
                : "position %d in the queue, behind %s, which waits for resources (jobs start in submission order)"
                        .formatted(position, firstWaitsFor), position);
    }

    /** The first waiting job: a slot is free, but not what it asks for ({@code waiting for 2 GPUs: ...}). */
    public synchronized void showWaitingForResources(String waitingFor) {
        show("WaitingForResources", waitingFor + "; position 1 in the queue", 1);
    }

    private void show(String newReason, String newMessage, int position) {
        if (phase == JobPhase.PENDING && !(newMessage.equals(message) && Integer.valueOf(position).equals(queuePosition))) {
            queuePosition = position;
            reason = newReason;
            message = newMessage;
            // Shown, not written: positions change with every start and cancel, and are worked out again on load.
            publish(false);
        }
    }

    /**
     * Called once the job has its ports: the plan now says where every replica listens. Returns
     * false when the job ended meanwhile (cancelled on its way out of the queue): nothing is to start.
     */
    synchronized boolean placed(JobPlan placedPlan, GpuAssignment givenGpus) {
        if (phase.isFinished()) {
            return false;
        }
        this.plan = placedPlan;
        this.gpus = givenGpus;
        this.port = placedPlan.ports().first();
        queuePosition = null;
        if (restartAt != null) {
            publish(); // its next attempt starts when its backoff ends (beginAttempt)
            return true;
        }
        this.starting = true;
        replicas = new LocalReplicas(placedPlan);
        reason = null;
        message = null;
        beginAttemptRecord();
        publish();
        return true;
    }

    /**
     * The backoff has passed: the same plan's replicas, all pending again, for the next attempt. Returns
     * false when the job ended meanwhile (cancelled during its backoff): nothing is to start.
     */
    synchronized boolean beginAttempt() {
        if (phase.isFinished() || restartAt == null) {
            return false;
        }
        restartAt = null;
        starting = true;
        replicas = new LocalReplicas(plan);
        reason = null;
        message = null;
        beginAttemptRecord();
        publish();
        return true;
    }

    private void beginAttemptRecord() {
        if (plan.spec().lifecycle().maxRestartsOrDefault() > 0) {
            ledger = ledger.begin(clock.instant());
        }
    }

    /**
     * A replica's process is running. Returns false when the job ended while it was being
     * started (another replica failed first): the caller must stop it at once.
     */
    synchronized boolean replicaStarted(int attempt, Replica replica, ReplicaProcess process) {
        boolean wanted = !phase.isFinished() && attempt == ledger.restarts() && restartAt == null;
        alive.add(process);
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

    /**
     * Where a replica's entry point runs, looked up after its start: shown in its status while this process of
     * this attempt runs. Shown, not written: after a restart of the service the replica is not running any more.
     */
    synchronized void replicaPids(int attempt, String replicaId, ReplicaProcess process, ReplicaProcessTree.Ids pids) {
        LocalReplicas.Entry entry = replicas.get(replicaId);
        if (attempt == ledger.restarts() && entry != null && entry.process == process && entry.state == ReplicaState.RUNNING) {
            entry.pids = pids;
            publish(false);
        }
    }

    /** Its running replicas' processes, for a stack dump; none once it has ended. */
    synchronized Map<Replica, ReplicaProcess> runningReplicas() {
        return phase.isFinished() ? Map.of() : replicas.running();
    }

    /** Every replica has been started (or the start failed): write the record once. */
    synchronized void startFinished() {
        starting = false;
        publish();
        tellIfIdle();
    }

    /** A process of this job is gone, with every process it started: it holds nothing any more. */
    synchronized void processGone(ReplicaProcess process) {
        if (alive.remove(process)) {
            tellIfIdle();
        }
    }

    /**
     * Runs {@code then} once nothing of the job is being spawned and none of its processes is left: at
     * once if so now, else on the thread that saw the last one go. It must return at once (hand work off).
     */
    synchronized void whenIdle(Runnable then) {
        if (idle()) {
            then.run();
        } else {
            whenIdle.add(then);
        }
    }

    /** It has ended, but not every process of it is gone yet: it still holds what it held. */
    public synchronized boolean stopping() {
        return phase.isFinished() && !drainedTold;
    }

    private boolean idle() {
        return !starting && alive.isEmpty();
    }

    private void tellIfIdle() {
        if (!idle()) {
            return;
        }
        List<Runnable> waiting = List.copyOf(whenIdle);
        whenIdle.clear();
        waiting.forEach(Runnable::run);
        if (phase.isFinished() && !drainedTold) {
            drainedTold = true;
            onDrained.accept(this);
        }
    }

    /**
     * What a replica's exit leads to: the processes to stop (the rest of the job, when this ended its
     * attempt), which the caller stops outside this lock, and when the next attempt starts, if there is one.
     */
    record Outcome(List<ReplicaProcess> toStop, Instant restartAt, Instant heldUntil) {

        static final Outcome NOTHING = new Outcome(List.of(), null, null);

        Outcome(List<ReplicaProcess> toStop, Instant restartAt) {
            this(toStop, restartAt, null);
        }
    }

    /** A replica's process of {@code attempt} ended with {@code exitCode}. */
    synchronized Outcome replicaExited(int attempt, String id, int exitCode, Optional<String> lastWords,
                                       RestartBackoff backoff) {
        if (attempt != ledger.restarts() || restartAt != null) {
            return Outcome.NOTHING; // an earlier attempt's replica, stopped when that attempt failed
        }
        LocalReplicas.Entry r = replicas.get(id);
        boolean counts = r.exited(exitCode, lastWords, clock.instant());
        if (!counts || phase.isFinished() || hold != null) {
            // We stopped it, so its exit is no failure; or the job has ended already; or its attempt has failed
            // and is held, and the hold's end decides what follows, as that failure would have at once.
            publish();
            return Outcome.NOTHING;
        }
        if (exitCode != 0) {
            return attemptFailed(Ending.exited(r.replica.role(), r.replica.index(), exitCode, r.failureReason(),
                    r.failureMessage(attempt)), backoff, r.replica.id() + " " + r.reason);
        }
        if (replicas.everyTrainerSucceeded()) {
            return new Outcome(finish(JobPhase.SUCCEEDED, JobStatus.COMPLETED, JobStatus.COMPLETED_MESSAGE), null);
        }
        publish();
        return Outcome.NOTHING;
    }

    /**
     * The service restarted while this job's attempt ran (read back from its record): its processes are
     * gone or being stopped. That is a failure from outside, restarted as {@code restart_on} says.
     */
    synchronized Outcome serviceRestarted(String reasonIfFailed, String messageIfFailed, RestartBackoff backoff) {
        if (phase.isFinished() || restartAt != null) {
            return Outcome.NOTHING;
        }
        if (hold != null) {
            return endHold(backoff); // held when the service stopped: its processes are gone, the hold with them
        }
        return attemptFailed(Ending.fromOutside(reasonIfFailed, messageIfFailed), backoff, null);
    }

    /**
     * Ends its hold now, as its attempt would have ended at once: the job fails, or waits for its next attempt
     * (which a later start of the service begins, its record saying when). For a service that stops or restarts.
     */
    synchronized Outcome endHold(RestartBackoff backoff) {
        if (hold == null || phase.isFinished()) {
            return Outcome.NOTHING;
        }
        Ending held = hold.ending();
        hold = null;
        return attemptFailed(held, backoff, null);
    }

    /**
     * The hold's time is over: what failed the attempt now restarts or fails the job, as it would have at once.
     * Nothing when the job is not held (it ended meanwhile: a cancel ends a hold) or its hold is not over yet.
     */
    synchronized Outcome holdOver(RestartBackoff backoff) {
        if (hold == null || !hold.over(clock.instant())) {
            return Outcome.NOTHING;
        }
        return endHold(backoff);
    }

    /**
     * How replica {@code replicaId} was started, to run a command as it ran: only while the job is held.
     *
     * @throws JobConflictException when the job is not held, or that replica never started in this attempt
     */
    synchronized ReplicaProcess.Launch heldLaunch(String replicaId) {
        LocalReplicas.Entry entry = replicas.get(replicaId);
        if (hold == null || phase.isFinished()) {
            throw JobConflictException.notHeld(key);
        }
        if (entry.launch == null) {
            throw new JobConflictException("Replica never started", "exec runs a command as a replica ran, and "
                    + replicaId + " of job '" + key.name() + "' was not started in its held attempt.");
        }
        return entry.launch;
    }

    /**
     * A command was spawned in a replica of this held job, behind its gate: kept (in the record too, so that a
     * later start of the service stops it) until it ends or the hold does. False when the hold ended meanwhile:
     * the caller must stop it, unopened.
     */
    synchronized boolean execStarted(ReplicaProcess exec) {
        if (hold == null || phase.isFinished()) {
            return false;
        }
        alive.add(exec);
        execs.put("exec-" + ++execsStarted, exec);
        publish();
        return true;
    }

    /** A command run in a replica is gone, with whatever it started. */
    synchronized void execEnded(ReplicaProcess exec) {
        if (execs.values().remove(exec)) {
            publish();
        }
        processGone(exec);
    }

    /**
     * What the attempt's stall watch saw: every running trainer silent ({@code silence} says which since
     * when) or not. A stall fails the attempt where {@code restart_on} names it; elsewhere it is a warning,
     * {@code Stalled} as the running job's reason, gone once a trainer prints again.
     */
    synchronized Outcome stallSeen(int attempt, Optional<String> silence, RestartBackoff backoff) {
        if (attempt != ledger.restarts() || restartAt != null || phase != JobPhase.RUNNING) {
            return Outcome.NOTHING;
        }
        if (silence.isEmpty()) {
            if (StallWatch.STALLED.equals(reason)) {
                reason = null;
                message = null;
                publish();
            }
            return Outcome.NOTHING;
        }
        if (hold != null) {
            return Outcome.NOTHING; // its attempt has failed and is held: silence is expected
        }
        if (StallJudge.failsTheAttempt(plan.spec())) {
            return attemptFailed(Ending.stalled(silence.get()), backoff, silence.get());
        }
        if (!StallWatch.STALLED.equals(reason) || !silence.get().equals(message)) {
            reason = StallWatch.STALLED;
            message = silence.get();
            publish();
        }
        return Outcome.NOTHING;
    }

    /**
     * The attempt failed as {@code ending} says: the job fails, or its next attempt waits out a backoff; or first,
     * where the request has a {@code debug_hold}, the attempt is held as it is.
     *
     * @param failureIfHeld what failed, in words for a hold's message; {@code null}: never held (a failure the
     *                      service saw after the fact, or the end of a hold)
     */
    private Outcome attemptFailed(Ending ending, RestartBackoff backoff, String failureIfHeld) {
        RestartDecision decision = ledger.after(plan.spec(), ending, backoff).orElseThrow();
        Optional<DebugHold> held = failureIfHeld == null ? Optional.empty()
                : DebugHold.of(plan.spec(), ending, clock.instant());
        if (held.isPresent()) {
            hold = held.get();
            reason = DebugHold.HELD;
            message = hold.message(failureIfHeld, key.name(), decision);
            publish();
            return new Outcome(List.of(), null, hold.until());
        }
        if (!(decision instanceof RestartDecision.Restart restart)) {
            return new Outcome(finish(JobPhase.FAILED, ending.reason(), ((RestartDecision.Fail) decision).message()), null);
        }
        Instant now = clock.instant();
        ledger = ledger.end(now, ending.reason(), ending.message()).restarting(restart);
        restartAt = now.plus(restart.backoff());
        reason = RestartDecision.RESTARTING;
        message = restart.message();
        List<ReplicaProcess> toStop = replicas.stopActive();
        toStop.addAll(stopExecs());
        publish();
        return new Outcome(toStop, restartAt);
    }

    /** The commands run in its replicas during a hold, which ends: they are to be stopped. */
    private List<ReplicaProcess> stopExecs() {
        hold = null;
        List<ReplicaProcess> toStop = List.copyOf(execs.values());
        execs.clear();
        return toStop;
    }

    /** Fails a job that could not start (no ports, a process that would not spawn). */
    public synchronized List<ReplicaProcess> failToStart(String why) {
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
        restartAt = null;
        ledger = ledger.end(finishedAt, finalReason, finalMessage);
        if (startedAt == null) {
            // Replicas start side by side: a fast one can end the job before the others report in.
            startedAt = replicas.firstStart();
        }
        List<ReplicaProcess> toStop = replicas.stopActive();
        toStop.addAll(stopExecs());
        publish();
        tellIfIdle();
        return toStop;
    }

    synchronized JobRecord record() {
        Map<String, ReplicaProcess.ProcessRef> processes = replicas.processRefs();
        execs.forEach((name, exec) -> processes.put(name, exec.ref()));
        return new JobRecord(plan.spec(), plan.namespace(), port, snapshot.status(), processes, restartAt, gpus, hold);
    }

    private void publish() {
        publish(true);
    }

    private void publish(boolean write) {
        List<ReplicaStatus> statuses = replicas.statuses(gpus, ledger.restarts());
        JobStatus status = new JobStatus(phase, reason, message, createdAt, startedAt, finishedAt, queuePosition,
                LocalReplicas.counts(plan.pservers(), statuses), LocalReplicas.counts(plan.trainers(), statuses),
                statuses, ledger.restarts(), ledger.attempts());
        snapshot = new Job(plan, status);
        if (write && !starting) {
            onChange.accept(this);
        }
        onShown.accept(key);
    }
}
