package io.paddlejobs.backend.local;

import io.paddlejobs.backend.ClusterOnlyFields;
import io.paddlejobs.backend.JobChanges;
import io.paddlejobs.backend.SecretStore;
import io.paddlejobs.backend.ShellScripts;
import io.paddlejobs.backend.local.process.LogFiles;
import io.paddlejobs.backend.local.process.MissingScripts;
import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.process.SpawnHealth;
import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.record.JobRecordStore;
import io.paddlejobs.backend.local.record.RecordedJobs;
import io.paddlejobs.backend.local.sandbox.DevicesAtStart;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import io.paddlejobs.backend.local.schedule.DiskSpace;
import io.paddlejobs.backend.local.schedule.LocalScheduler;
import io.paddlejobs.backend.local.schedule.PortAllocator;
import io.paddlejobs.backend.local.schedule.ResourceLedger;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.job.Capacity;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.ExecProcess;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.StackDump;
import io.paddlejobs.planning.Derivation;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import io.paddlejobs.planning.Violation;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs jobs as OS processes on this machine. Jobs live in memory (reads never touch the disk)
 * and are written to their record on every change; which of them run is the {@link LocalScheduler}'s
 * to say, and the {@link ReplicaLauncher} starts and stops their processes.
 */
public final class LocalJobBackend implements JobBackend, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalJobBackend.class);
    private static final String RUN_AGAIN =
            "To run it again, delete it and submit it again (or submit it under another name).";
    private static final String SERVICE_STOPPED = "ServiceStopped";
    private static final String STOPPED_WHILE_RUNNING = "the service was stopped while the job was running. " + RUN_AGAIN;

    private final JobPlanner planner;
    private final JobRecordStore store;
    private final Site site;
    private final DiskSpace disk;
    private final Path dataRoot;
    private final Clock clock;
    private final ConcurrentHashMap<JobKey, LocalJob> jobs = new ConcurrentHashMap<>();
    private final ReplicaLauncher launcher;
    private final LocalScheduler scheduler;
    private final LocalStacks stacks;
    private final ResourceLedger resources;
    /** Whether starts hand out GPUs: without any, the request's device variables reach the replicas as given. */
    private final boolean handsOutGpus;
    private final JobChanges changes = new JobChanges();
    /** Set as it closes: from then on no replica is let run, so that none outlives the service. */
    private volatile boolean closing;

    private final RestartBackoff backoff;
    private final SecretStore secrets;
    /** Whether other tenants' replicas cannot read this job's secrets ({@link Sandbox#keepsTenantsSecretsApart}). */
    private final boolean secretsApart;
    private final LocalImages images;

    /** With the default backoff between attempts (10 s, doubling up to 5 min). */
    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock, Sandbox sandbox,
                    CodePackages packages, ResourceLedger resources) {
        this(properties, planner, store, clock, sandbox, packages, resources,
                new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)));
    }

    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock, Sandbox sandbox,
                    CodePackages packages, ResourceLedger resources, RestartBackoff backoff) {
        this(properties, planner, store, clock, sandbox, packages, resources, backoff, new SpawnHealth(clock),
                SecretStore.NONE);
    }

    /**
     * @param spawns  told whether replicas' processes start (readiness)
     * @param secrets the operator's store of the secrets jobs may name ({@code env_from_secrets})
     */
    LocalJobBackend(LocalProperties properties, JobPlanner planner, JobRecordStore store, Clock clock, Sandbox sandbox,
                    CodePackages packages, ResourceLedger resources, RestartBackoff backoff, SpawnHealth spawns,
                    SecretStore secrets) {
        this.secrets = secrets;
        this.secretsApart = sandbox.keepsTenantsSecretsApart();
        this.images = LocalImages.of(properties.images());
        this.planner = planner;
        this.backoff = backoff;
        this.store = store;
        this.site = new LoopbackSite(properties);
        this.disk = new DiskSpace(properties.dataRoot(), properties.minFreeSpace());
        this.dataRoot = properties.dataRoot();
        this.clock = clock;
        this.launcher = new ReplicaLauncher(properties, planner, site, store, packages, sandbox, spawns, clock,
                backoff, this::keepRecordThenRun, secrets);
        this.stacks = new LocalStacks(store, clock, sandbox.usesBubblewrap());
        launcher.onStall(stacks::takeForStall);
        this.resources = resources;
        this.handsOutGpus = resources.capacity().total().gpus() > 0; // the machine's, fixed at start
        this.scheduler = new LocalScheduler(properties.maxRunningJobs(),
                new PortAllocator(properties.firstPort(), properties.lastPort()), resources, launcher.executor(),
                launcher::start);
    }

    /**
     * A job asking for more GPUs or memory than this machine has would wait for ever: it is refused instead;
     * so is one that asks for a cluster's placement, or for secrets the store does not hold for its namespace.
     */
    @Override
    public void requireFits(JobPlan plan) {
        List<Violation> violations = new ArrayList<>(ClusterOnlyFields.refused(plan.spec(), "local",
                "runs every replica on this machine"));
        var asked = plan.spec().code().envFromSecrets();
        if (!asked.isEmpty() && !secretsApart) {
            violations.add(Violation.of("env_from_secrets", String.join(",", asked.keySet()), "tenants share this"
                    + " machine and every replica runs as the service's user, so another tenant's job could read a"
                    + " secret given to this one (from its replica's environment, or from the store itself): this"
                    + " backend takes secrets with tenants only where each namespace's replicas run as a user of"
                    + " their own (the service as root, with bubblewrap); give the job its credentials another way"));
        } else {
            violations.addAll(secrets.check(asked, plan.namespace()));
        }
        plan.spec().code().envFromSecrets().keySet().stream().filter(Sandbox::readByLoader).forEach(name ->
                violations.add(Violation.of("env_from_secrets." + name, name, "is read by the dynamic loader, which"
                        + " confined replicas are given only on their command line, where other users can read it:"
                        + " a secret cannot be " + name)));
        violations.addAll(resources.neverFits(plan));
        if (!violations.isEmpty()) {
            throw new InvalidJobRequestException(violations);
        }
    }

    @Override
    public void newStepReported(JobKey key, String replica, java.time.Instant at) {
        launcher.steps().saw(key, replica, at);
    }

    @Override
    public Optional<Capacity> capacity() {
        return Optional.of(scheduler.capacity());
    }

    /**
     * A script named by an absolute path that is not here (the replicas would fail at once), and device
     * variables of the request that a start replaces.
     */
    @Override
    public List<String> warnings(JobPlan plan) {
        List<String> warnings = new ArrayList<>(MissingScripts.warnings(plan));
        if (handsOutGpus) {
            warnings.addAll(DevicesAtStart.warnings(plan));
        }
        return warnings;
    }

    @Override
    public JobPlan asDryRun(JobPlan plan) {
        JobPlan shown = handsOutGpus ? DevicesAtStart.shown(plan) : plan;
        for (Role role : List.of(Role.PSERVER, Role.TRAINER)) {
            String image = LocalImages.imageOf(plan.spec(), role);
            if (image != null && plan.role(role).count() > 0) {
                shown = shown.plusDerivation(new Derivation("image", image, images.binFor(plan.spec(), role)
                        .map(bin -> "the " + role.label() + "s run with " + bin + " first on PATH (paddlejobs.local.images)")
                        .orElse("no stand-in for it here (paddlejobs.local.images): the " + role.label()
                                + "s run what the service's PATH finds")));
            }
        }
        return shown;
    }

    @Override
    public boolean shipsCodePackages() {
        return true;
    }

    @Override
    public Site site() {
        return site;
    }

    @Override
    public Job submit(JobPlan plan) {
        LocalJob job = new LocalJob(plan, clock.instant(), clock, listeners());
        if (jobs.putIfAbsent(job.key(), job) != null) {
            throw new JobAlreadyExistsException(job.key());
        }
        try {
            disk.requireRoomFor(job.key());
            store.delete(job.key()); // whatever an earlier job of this name left (its log, its work directory)
            store.save(job.record());
        } catch (RuntimeException e) {
            // Nothing half-done: a job that could not be written is not kept, so it never hangs as Pending.
            jobs.remove(job.key(), job);
            throw disk.refusal(job.key(), e);
        }
        scheduler.submit(job);
        return job.snapshot();
    }

    /** How stacks are taken ({@code paddlejobs.stacks.*}); py-spy on the service's PATH until this is called. */
    void useStacks(StackProperties settings) {
        stacks.use(settings);
    }

    @Override
    public Optional<StackDump> takeStacks(JobKey key, String trigger) {
        return Optional.ofNullable(jobs.get(key)).map(job -> stacks.take(job, trigger));
    }

    @Override
    public List<StackDump> stacks(JobKey key) {
        return stacks.kept(key);
    }

    @Override
    public boolean holdsFailedAttempts() {
        return true;
    }

    /** In a sandbox made as the replica's was (its own PID namespace: the replica's processes are not in it). */
    @Override
    public Optional<ExecProcess> exec(JobKey key, Role role, int index, List<String> command) {
        LocalJob job = jobs.get(key);
        if (job == null || index >= job.plan().role(role).count()) {
            return Optional.empty();
        }
        String line = command.stream().map(ShellScripts::quote).collect(java.util.stream.Collectors.joining(" "));
        try {
            return Optional.of(new HeldCommand(launcher.exec(job, job.plan().replicasOf(role).get(index), "exec " + line)));
        } catch (IOException e) {
            throw new UncheckedIOException("the command could not be started in " + role.label() + "-" + index, e);
        }
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return Optional.ofNullable(jobs.get(key)).map(LocalJob::snapshot);
    }

    @Override
    public List<Job> list(String namespace) {
        return jobs.values().stream().map(LocalJob::snapshot)
                .filter(job -> job.plan().namespace().equals(namespace))
                .toList();
    }

    /** Every change of a job's snapshot, and its removal, is told as it happens. */
    @Override
    public void onChange(Consumer<JobKey> listener) {
        changes.add(listener, jobs.keySet());
    }

    @Override
    public Optional<Job> cancel(JobKey key) {
        return cancel(key, "Cancelled", "cancelled on request");
    }

    @Override
    public Optional<Job> cancel(JobKey key, String reason, String message) {
        return Optional.ofNullable(jobs.get(key)).map(job -> {
            stopNow(job, reason, message);
            return job.snapshot();
        });
    }

    @Override
    public boolean delete(JobKey key) {
        LocalJob job = jobs.get(key);
        if (job == null) {
            return false;
        }
        stopNow(job, "Deleted", "deleted on request");
        // Under the job's lock, which every record write holds: no write of this job follows the removal.
        synchronized (job) {
            if (!jobs.remove(key, job)) {
                return true; // a concurrent delete did it
            }
        }
        changes.accept(key);
        store.delete(key);
        return true;
    }

    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException {
        LocalJob job = jobs.get(key);
        if (job == null || index >= job.plan().role(role).count()) {
            return false;
        }
        String id = job.plan().replicasOf(role).get(index).id();
        // What a replica printed of its secrets is hidden wherever it is read: here, the history, the metrics.
        var masked = secrets.mask(job.plan().spec().code().envFromSecrets(), key.namespace()).wrap(out);
        LogFiles.write(store.logFile(key, id), tail, () -> follow && isActive(job, id), masked);
        masked.finish();
        return true;
    }

    @Override
    public boolean keepsEarlierAttemptLogs() {
        return true;
    }

    @Override
    public boolean writeEarlierLog(JobKey key, Role role, int index, int attempt, Integer tail, OutputStream out)
            throws IOException {
        LocalJob job = jobs.get(key);
        if (job == null || index >= job.plan().role(role).count()) {
            return false;
        }
        String id = job.plan().replicasOf(role).get(index).id();
        Path kept = store.earlierLogFile(key, attempt, id);
        if (!Files.exists(kept, LinkOption.NOFOLLOW_LINKS) && attempt == job.attempt() - 1) {
            // The job counts its restart as it decides it; the ended attempt's logs are moved aside only as the next begins.
            kept = store.logFile(key, id);
        }
        if (Files.exists(kept, LinkOption.NOFOLLOW_LINKS)) {
            var masked = secrets.mask(job.plan().spec().code().envFromSecrets(), key.namespace()).wrap(out);
            LogFiles.write(kept, tail, () -> false, masked);
            masked.finish();
        }
        return true;
    }

    private static boolean isActive(LocalJob job, String replicaId) {
        return job.snapshot().status().replicas().stream().anyMatch(r -> r.id().equals(replicaId)
                && (r.state() == ReplicaState.RUNNING || r.state() == ReplicaState.PENDING));
    }

    /** Ends the job now and waits until none of its processes is left. */
    private void stopNow(LocalJob job, String reason, String message) {
        scheduler.withdraw(job);
        launcher.stopNow(job.finish(JobPhase.CANCELLED, reason, message));
    }

    /**
     * What a job tells this backend: each change (written through), each change shown, and that it has
     * ended with none of its processes left, when the scheduler takes back what it held (on another
     * thread: this runs under the job's lock). Never before: a process in its grace period may still
     * use its GPUs and ports.
     */
    private LocalJob.Listeners listeners() {
        return new LocalJob.Listeners(this::persist, changes, scheduler::release);
    }

    /**
     * The record of a job whose replicas were just spawned and wait at their gates, written at once,
     * then the gates opened: under the job's lock as every write of it, and only while this backend
     * still keeps the job and it has not ended (a delete removes the record, a cancel ends it, under
     * that lock too). A cancel thus finds the replicas either not let run or running, never in between.
     */
    private boolean keepRecordThenRun(LocalJob job, Runnable letRun) {
        synchronized (job) {
            if (jobs.get(job.key()) != job || job.phase().isFinished()) {
                return false;
            }
            if (closing) {
                // Submitted as the service stops, after close() stopped the running jobs: it would outlive it.
                job.finish(JobPhase.FAILED, SERVICE_STOPPED, STOPPED_WHILE_RUNNING);
                return false;
            }
            try {
                store.save(job.record());
            } catch (UncheckedIOException e) {
                log.warn("Job {}: its record could not be written ({}); its replicas are not let run",
                        job.key(), e.getMessage());
                return false;
            }
            letRun.run();
            return true;
        }
    }

    /**
     * Every change is written through. Runs under the job's lock. A write that fails (a full disk) is
     * logged and changes nothing else: the job in memory is the truth, and the next change writes the
     * record again.
     */
    private void persist(LocalJob job) {
        if (jobs.get(job.key()) != job) {
            return; // not accepted yet, or deleted
        }
        JobRecord record = job.record();
        if (record.status().phase().isFinished()) {
            launcher.ended(job);
            scheduler.ended(job);
        }
        try {
            store.save(record);
        } catch (UncheckedIOException e) {
            log.warn("Job {}: {} ({}); it goes on in memory and is written at its next change",
                    job.key(), e.getMessage(), e.getCause() == null ? "" : e.getCause().toString());
        }
    }

    /**
     * Takes over the jobs of a previous run ({@link RecordedJobs}). Those that were running are
     * marked failed (or restarted, as {@code restart_on} says); those still queued are queued again,
     * in order. Any process a record names that is still alive is stopped, all at once, whatever the
     * job's phase: one that had ended may have been in its grace period (a cancel, a delete) when the
     * service died. Returns how many jobs it took over.
     */
    int recover() {
        JobWorkspace.keepPrivate(dataRoot);
        List<ReplicaProcess.ProcessRef> leftovers = new ArrayList<>();
        List<LocalJob> recorded = RecordedJobs.readBack(store, planner, site, clock, listeners());
        for (LocalJob job : recorded) {
            JobRecord record = job.record();
            jobs.put(job.key(), job);
            leftovers.addAll(record.processes().values());
            if (job.phase() == JobPhase.PENDING && record.processes().isEmpty()) {
                scheduler.requeue(job);
            } else if (!job.phase().isFinished()) {
                // Written before anything is stopped or started: a second crash finds the decision, not a second one.
                job.serviceRestarted("ServiceRestarted",
                        "the service restarted while the job was running; its processes were stopped. " + RUN_AGAIN,
                        backoff);
                if (job.waitsForSlot()) {
                    scheduler.requeue(job); // its next attempt, once its backoff has passed
                }
            }
        }
        // Nothing is started before the leftovers are gone: the GPUs they may still use are not handed out.
        launcher.stopLeftovers(leftovers);
        scheduler.startWhatFits();
        return recorded.size();
    }

    /** Stops the running jobs ({@link #stopJobs}), if a stop of the service has not already, and the launcher. */
    @Override
    public void close() {
        stopJobs();
        launcher.close();
    }

    /**
     * On a normal shutdown no replica outlives the service: every running job is stopped and recorded as failed;
     * a held one ends its hold as its attempt would have ended (failed, or restarted by the next start). Told to
     * the listeners as any change, so that the history writes how they ended; nothing starts after it.
     */
    public void stopJobs() {
        if (closing) {
            return; // the service's stop came first: a held job whose hold ended may be waiting for its next start
        }
        closing = true; // before the running jobs are looked at: a start after that lets no replica run
        // Queued jobs stay queued, as their records say: the next start runs them, as after a crash.
        scheduler.drain().forEach(job -> jobs.remove(job.key(), job));
        List<ReplicaProcess> toStop = new ArrayList<>();
        jobs.values().stream().filter(job -> !job.phase().isFinished()).forEach(job -> toStop.addAll(job.held()
                ? job.endHold(backoff).toStop()
                : job.finish(JobPhase.FAILED, SERVICE_STOPPED, STOPPED_WHILE_RUNNING)));
        launcher.stopNow(toStop);
    }
}
