package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.ClusterOnlyFields;
import io.paddlejobs.backend.JobChanges;
import io.paddlejobs.backend.SecretStore;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.backend.StepSightings;
import io.paddlejobs.backend.slurm.client.BatchJob;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.client.SlurmException;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.BatchScripts;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.backend.slurm.script.LogTail;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.backend.slurm.state.NextAttempts;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.backend.slurm.state.SlurmStatusMapper;
import io.paddlejobs.backend.slurm.state.SlurmStops;
import io.paddlejobs.backend.slurm.state.StatusPoller;
import io.paddlejobs.job.ExecProcess;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.StackDump;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import io.paddlejobs.planning.Violation;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs each attempt of a job as one Slurm batch job (heterogeneous when it has pservers: they are one
 * component, trainers the other); a job that may restart gets a new one per attempt. Jobs live in memory, so reads never wait for Slurm; the
 * {@link StatusPoller} brings them up to date and writes every change of phase to the job's
 * record, so a restarted service picks its jobs back up and knows how they ended after Slurm has
 * forgotten them. Each change to a job in memory (a submit, what a poll saw, a cancel, a delete)
 * is told to the {@link #onChange} listeners. Stopping the service leaves jobs running.
 */
public final class SlurmJobBackend implements JobBackend, AutoCloseable {

    private final SlurmProperties properties;
    private final SlurmClient slurm;
    private final SlurmRecords records;
    private final Clock clock;
    private final Site site;
    private final ConcurrentHashMap<JobKey, SlurmJob> jobs = new ConcurrentHashMap<>();
    private final JobChanges changes = new JobChanges();
    private final SlurmStops stops;
    private final RestartBackoff backoff;
    private final SecretStore secrets;
    private final boolean tenants;
    private StatusPoller poller;
    private final SlurmStacks stacks;
    private final SlurmExecs execs;
    /** When each trainer last reported a new step, from the metrics reader, for the stall judgement. */
    private final StepSightings steps = new StepSightings();

    SlurmJobBackend(SlurmProperties properties, SlurmClient slurm, SlurmRecords records, Clock clock,
                    RestartBackoff backoff) {
        this(properties, slurm, records, clock, backoff, SecretStore.NONE, false);
    }

    /**
     * @param secrets the operator's store of the secrets jobs may name ({@code env_from_secrets})
     * @param tenants whether tenants share the service (security modes {@code token}, {@code kubernetes}):
     *                then secrets are refused, as every tenant's jobs run as one user on one directory
     */
    SlurmJobBackend(SlurmProperties properties, SlurmClient slurm, SlurmRecords records, Clock clock,
                    RestartBackoff backoff, SecretStore secrets, boolean tenants) {
        this.secrets = secrets;
        this.tenants = tenants;
        this.properties = properties;
        this.slurm = slurm;
        this.records = records;
        this.clock = clock;
        this.backoff = backoff;
        this.site = new SlurmSite(properties);
        this.stops = new SlurmStops(jobs, slurm, records, clock, changes, properties.stopGracePeriod());
        this.stacks = new SlurmStacks(properties, records, clock);
        this.execs = new SlurmExecs(properties, records);
    }

    /** Reads back the jobs of a previous run (unfinished ones are polled again) and starts polling. */
    void start() {
        List<SlurmJobInfo> slurmJobs = slurmJobs();
        Map<Long, SlurmJobInfo> byId = new java.util.HashMap<>();
        slurmJobs.forEach(info -> byId.putIfAbsent(info.submittedId(), info));
        for (SlurmJob job : records.loadAll()) {
            // A record can be planted by a job: one that claims a Slurm job of another name is not that job.
            SlurmJobInfo known = byId.get(job.slurmId());
            if (known != null && !known.name().equals(BatchScripts.jobName(job.plan()))) {
                records.refuse(job, "its Slurm job %d is %s, not %s".formatted(job.slurmId(), known.name(),
                        BatchScripts.jobName(job.plan())));
                continue;
            }
            SlurmJob adopted = NextAttempts.adopt(job, slurmJobs);
            if (adopted != job) {
                records.save(adopted);
            }
            jobs.put(job.key(), adopted);
            if (job.isFinished() && job.cancelRequested() && known != null && !known.isFinal()) {
                // Cancelled, and the service stopped within the grace period: what it would have cancelled then.
                slurm.cancel(job.slurmId());
            }
        }
        NextAttempts next = new NextAttempts(jobs, slurm, records, properties, changes);
        poller = StatusPoller.start(jobs, slurm, records, clock, properties.pollInterval(), changes, next, backoff,
                stops, steps, stacks::takeForStall);
    }

    @Override
    public void newStepReported(JobKey key, String replica, java.time.Instant at) {
        steps.saw(key, replica, at);
    }

    /** Every job Slurm remembers; none when Slurm does not answer (the poller checks again). */
    private List<SlurmJobInfo> slurmJobs() {
        try {
            return slurm.jobs();
        } catch (SlurmException e) {
            return List.of();
        }
    }

    /** How stacks are taken ({@code paddlejobs.stacks.*}); the defaults until this is called. */
    void useStacks(StackProperties settings) {
        stacks.use(settings);
    }

    @Override
    public Optional<StackDump> takeStacks(JobKey key, String trigger) {
        return Optional.ofNullable(jobs.get(key)).filter(job -> job.slurmId() > 0).map(job -> stacks.take(job, trigger));
    }

    @Override
    public List<StackDump> stacks(JobKey key) {
        return records.files(key).stacks();
    }

    @Override
    public String whyNoStacks() {
        return SlurmStacks.whyNot();
    }

    /** Only with the Slurm commands on the service's host ({@code client=cli}): exec runs through srun. */
    @Override
    public boolean holdsFailedAttempts() {
        return properties.client() == SlurmProperties.ClientKind.CLI;
    }

    @Override
    public Optional<ExecProcess> exec(JobKey key, Role role, int index, List<String> command) {
        return Optional.ofNullable(withReplica(key, role, index)).map(job -> execs.start(job, role, index, command));
    }

    @Override
    public Site site() {
        return site;
    }

    @Override
    public Job submit(JobPlan plan) {
        JobKey key = new JobKey(plan.namespace(), plan.name());
        Instant now = clock.instant();
        JobFiles files = records.files(key);
        var noComponents = new SlurmStatusMapper.Tracked(plan, now, false, List.of(), ReplicaMarks.NONE);
        SlurmJob submitting = SlurmJob.submitting(plan, now, SlurmStatusMapper.map(noComponents));
        if (jobs.putIfAbsent(key, submitting) != null) {
            throw new JobAlreadyExistsException(key);
        }
        try {
            stops.awaitRemoved(key); // a deleted job of this name may still stop, and write its files
            files.delete(); // what a job of this name left behind once, if its record went first
            files.prepare(plan);
            files.writeSecrets(secretValues(plan));
            SlurmJob job = submitting.submitted(slurm.submit(BatchScripts.of(plan, files, properties)));
            records.save(job);
            jobs.put(key, job);
            changes.accept(key);
            return job.toJob();
        } catch (RuntimeException e) {
            jobs.remove(key, submitting);
            try {
                files.delete();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /**
     * A partition, account or QOS the operator does not allow the job's namespace is refused, naming the field;
     * so are a cluster's placement fields, and secrets the store does not hold for the namespace, or any
     * secret where tenants share this backend.
     */
    @Override
    public void requireFits(JobPlan plan) {
        List<Violation> violations = new ArrayList<>(SlurmChoices.violations(plan, properties));
        violations.addAll(ClusterOnlyFields.refused(plan.spec(), "slurm", "places replicas on its partitions' nodes"));
        var asked = plan.spec().code().envFromSecrets();
        if (tenants && !asked.isEmpty()) {
            violations.add(Violation.of("env_from_secrets", String.join(",", asked.keySet()), "the slurm backend runs"
                    + " every tenant's jobs as one Unix user on one shared directory (paddlejobs.allow-shared-files),"
                    + " so another tenant's job could read a secret given to this one: with tenants (security mode token"
                    + " or kubernetes) this backend takes no secrets; give the job its credentials another way"));
        } else {
            violations.addAll(secrets.check(asked, plan.namespace()));
        }
        if (!violations.isEmpty()) {
            throw new InvalidJobRequestException(violations);
        }
    }

    @Override
    public List<String> warnings(JobPlan plan) {
        var lifecycle = plan.spec().lifecycle();
        return java.util.stream.Stream.concat(BatchScripts.imageWarning(plan, properties).stream(),
                backoff.eatsIntoMaxRunTime(lifecycle.maxRunTime(), lifecycle.maxRestartsOrDefault()).stream()).toList();
    }

    /** For a dry run: the batch script exactly as {@code sbatch} would get it (its hosts still tokens). */
    @Override
    public List<Map<String, Object>> manifests(JobPlan plan) {
        BatchJob job = BatchScripts.of(plan, records.files(new JobKey(plan.namespace(), plan.name())), properties);
        return List.of(Map.of("kind", "SlurmBatchJob", "name", job.name(), "script", BatchScripts.withDirectives(job)));
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return Optional.ofNullable(jobs.get(key)).filter(job -> job.slurmId() > 0).map(SlurmJob::toJob);
    }

    @Override
    public List<Job> list(String namespace) {
        return jobs.values().stream().filter(job -> job.slurmId() > 0 && job.plan().namespace().equals(namespace))
                .map(SlurmJob::toJob).toList();
    }

    @Override
    public void onChange(Consumer<JobKey> listener) {
        changes.add(listener, jobs.keySet());
    }

    @Override
    public Optional<Job> cancel(JobKey key) {
        return stops.cancel(key);
    }

    @Override
    public boolean delete(JobKey key) {
        return stops.delete(key);
    }

    /**
     * The current attempt's log; while the job waits out its backoff, the log of the attempt that just ended (the
     * next one has written nothing yet, and the crash the restart is for is what a user comes to read).
     */
    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException {
        SlurmJob job = withReplica(key, role, index);
        if (job == null) {
            return false;
        }
        String id = Replica.idOf(role, index);
        int attempt = job.restartAt() != null ? job.attempt() - 1 : job.attempt();
        // Followed while the replica may write to this attempt's log: a restart begins another file.
        writeLog(job, id, attempt, tail, () -> follow && mayWriteMore(key, id, attempt), out);
        return true;
    }

    /** Each attempt's replicas write a log file of their own on the shared directory ({@link JobFiles#logFile}). */
    @Override
    public boolean keepsEarlierAttemptLogs() {
        return true;
    }

    @Override
    public boolean writeEarlierLog(JobKey key, Role role, int index, int attempt, Integer tail, OutputStream out)
            throws IOException {
        SlurmJob job = withReplica(key, role, index);
        if (job == null) {
            return false;
        }
        writeLog(job, Replica.idOf(role, index), attempt, tail, () -> false, out);
        return true;
    }

    /** The submitted job, where it has that replica; else {@code null}. */
    private SlurmJob withReplica(JobKey key, Role role, int index) {
        SlurmJob job = jobs.get(key);
        return job == null || job.slurmId() == 0 || index >= job.plan().role(role).count() ? null : job;
    }

    private void writeLog(SlurmJob job, String replicaId, int attempt, Integer tail, BooleanSupplier follow,
                          OutputStream out) throws IOException {
        // What a replica printed of its secrets is hidden wherever it is read: here, the history, the metrics.
        var masked = secrets.mask(job.plan().spec().code().envFromSecrets(), job.key().namespace()).wrap(out);
        LogTail.write(records.files(job.key()).logFile(replicaId, attempt), tail, SlurmProperties.MAX_LOG_READ.toBytes(),
                follow, masked);
        masked.finish();
    }

    /** The values of the job's secrets, read as it is submitted; one gone since the check is still a 400. */
    private Map<String, String> secretValues(JobPlan plan) {
        try {
            return secrets.values(plan.spec().code().envFromSecrets(), plan.namespace());
        } catch (java.io.UncheckedIOException e) {
            throw new InvalidJobRequestException(List.of(Violation.of("env_from_secrets", null, e.getCause().getMessage())));
        }
    }

    private boolean mayWriteMore(JobKey key, String replicaId, int attempt) {
        SlurmJob job = jobs.get(key);
        return job != null && !job.isFinished() && job.attempt() == attempt && job.restartAt() == null
                && job.status().replicas().stream()
                .anyMatch(r -> r.id().equals(replicaId)
                        && (r.state() == ReplicaState.RUNNING || r.state() == ReplicaState.PENDING));
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.close();
        }
        stops.close();
        stacks.close();
    }
}
