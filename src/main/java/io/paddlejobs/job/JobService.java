package io.paddlejobs.job;

import io.paddlejobs.job.attempt.DebugHold;
import io.paddlejobs.planning.DnsLabels;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.RunTimeLimit;
import io.paddlejobs.planning.Violation;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.springframework.stereotype.Service;

/** Plans, submits and manages jobs on the configured backend. */
@Service
public class JobService {

    private final JobPlanner planner;
    private final JobBackend backend;
    private final CodePackages packages;
    private final PlanSize planSize;
    private final NamespaceUsage usage;
    /** How many of the history's jobs a list reads at a time, at most. */
    private static final int HISTORY_BATCH = 200;

    private final JobHistory history;
    private final List<Consumer<JobKey>> listeners = new CopyOnWriteArrayList<>();
    /**
     * Creates of one name take turns (names share one of these by hash): two at once would both
     * write the history's row for it, and the loser's write would fail as a 503 instead of
     * finding the winner's job.
     */
    private final Object[] createLocks = Stream.generate(Object::new).limit(64).toArray();

    public JobService(JobPlanner planner, JobBackend backend, CodePackages packages,
                      PlanSize planSize, JobHistory history) {
        this.planner = planner;
        this.backend = backend;
        this.history = history;
        this.packages = packages;
        this.planSize = planSize;
        this.usage = new NamespaceUsage(backend);
    }

    /** What was submitted, and whether this call created it or found the identical job already there. */
    public record Submission(Job job, boolean created) {
    }

    /**
     * The plan a submit would start, with the objects it would create; starts nothing.
     *
     * @param unchecked {@code null} for a dry run that checked what a submit checks; offline, what it could not
     */
    public record DryRun(JobPlan plan, List<Map<String, Object>> manifests, List<String> unchecked) {
    }

    public DryRun dryRun(JobRequest request, String namespace) {
        JobPlan plan = plan(request, namespace);
        return new DryRun(backend.asDryRun(plan), backend.manifests(plan), null);
    }

    /** A dry run that asks the cluster nothing: the exact objects, and what a submit would check besides. */
    public DryRun offlineDryRun(JobRequest request, String namespace) {
        JobPlan plan = plan(request, namespace);
        JobBackend.OfflineManifests offline = backend.offlineManifests(plan);
        return new DryRun(backend.asDryRun(plan), offline.manifests(), offline.unchecked());
    }

    /**
     * Submits a job: plans it, admits it against the namespace's {@link Quota}, and creates it.
     * Resubmitting a name with an identical spec returns the existing job before any limit applies
     * (a client's retry creates nothing); a different spec under a taken name is a conflict.
     */
    public Submission submit(JobRequest request, String namespace, Quota quota) {
        JobRequest named = withGeneratedName(request);
        Optional<Job> retried = backend.find(new JobKey(namespace, named.name()))
                .filter(existing -> existing.plan().spec().equals(named));
        if (retried.isPresent()) {
            return new Submission(retried.get(), false);
        }
        JobPlan plan = plan(named, namespace);
        try {
            return usage.admit(plan, quota, () -> create(plan));
        } catch (JobAlreadyExistsException e) {
            // Outside the namespace's and the name's locks: waiting to see another replica's job holds no one up.
            JobKey key = e.key();
            backend.awaitFound(key);
            Job existing = backend.find(key).orElseThrow(() -> JobConflictException.nameTaken(key));
            if (!existing.plan().spec().equals(plan.spec())) {
                throw JobConflictException.nameTaken(key);
            }
            return new Submission(existing, false);
        }
    }

    private Submission create(JobPlan plan) {
        JobKey key = new JobKey(plan.namespace(), plan.name());
        synchronized (createLocks[Math.floorMod(key.hashCode(), createLocks.length)]) {
            boolean written = false;
            if (backend.find(key).isEmpty()) {
                // On disk before anything runs: a job the history cannot record is not started (503).
                history.submitted(plan);
                written = true;
            }
            try {
                return new Submission(backend.submit(plan), true);
            } catch (JobAlreadyExistsException e) {
                throw e; // another replica's job: looked at outside the locks
            } catch (RuntimeException refused) {
                if (written) {
                    forgetRefused(key, refused);
                }
                throw refused;
            }
        }
    }

    /**
     * The backend refused the submit, so nothing runs: the row written for it goes too, or it would stay,
     * listed nowhere and never removed by retention (which sweeps such rows anyway, should this fail).
     */
    private void forgetRefused(JobKey key, RuntimeException refused) {
        try {
            history.delete(key);
        } catch (RuntimeException e) {
            refused.addSuppressed(e);
        }
    }

    /** @see JobBackend#capacity */
    public Optional<Capacity> capacity() {
        return backend.capacity();
    }

    public Job get(JobKey key) {
        return find(key).orElseThrow(() -> new JobNotFoundException(key));
    }

    /** The job as its backend has it, else as the history kept it (marked archived). */
    public Optional<Job> find(JobKey key) {
        Optional<Job> live = backend.find(key);
        return live.isPresent() ? live : history.find(key);
    }

    /** The job as its backend has it, ignoring the history. */
    public Optional<Job> findLive(JobKey key) {
        return backend.find(key);
    }

    /** @see JobBackend#onChange; also told when a delete removed a job from the history */
    public void onChange(Consumer<JobKey> listener) {
        listeners.add(listener);
        backend.onChange(listener);
    }

    /**
     * The names of a namespace's unfinished jobs, by the code package each names: the packages that
     * must not be deleted or expire under them.
     */
    public Map<String, List<String>> unfinishedJobsByPackage(String namespace) {
        return backend.list(namespace).stream()
                .filter(job -> !job.status().phase().isFinished() && job.plan().spec().code().codePackage() != null)
                .sorted(Comparator.comparing(job -> job.plan().name()))
                .collect(Collectors.groupingBy(job -> job.plan().spec().code().codePackage(),
                        TreeMap::new,
                        Collectors.mapping(job -> job.plan().name(), Collectors.toList())));
    }

    /** The namespace's jobs its backend holds, from memory; none of those only the history has. */
    public List<Job> live(String namespace) {
        return backend.list(namespace);
    }

    /**
     * A page of the namespace's live jobs and, for each the backend no longer has, what the history
     * kept: one entry per job, in the list's order. The history is read in batches from where the
     * page starts, only as far as the page needs.
     */
    public JobPage list(JobQuery query) {
        ListPosition after = query.continueToken() == null ? null : ListPosition.decode(query.continueToken());
        List<Job> live = backend.list(query.namespace());
        Set<JobKey> liveKeys = live.stream().map(Job::key).collect(Collectors.toSet());
        // One more than the page, to tell whether another page follows.
        int wanted = query.limit() == Integer.MAX_VALUE ? query.limit() : query.limit() + 1;
        List<Job> candidates = new ArrayList<>(live.stream().filter(job -> inPage(query, after, job)).toList());
        candidates.addAll(archived(query, after, liveKeys, wanted));
        List<Job> matching = candidates.stream().sorted(ListPosition.ORDER).limit(wanted).toList();
        if (matching.size() <= query.limit()) {
            return new JobPage(matching, null);
        }
        List<Job> page = matching.subList(0, query.limit());
        return new JobPage(List.copyOf(page), ListPosition.of(page.get(page.size() - 1)).encode());
    }

    /** The first {@code wanted} jobs after the position that only the history has. */
    private List<Job> archived(JobQuery query, ListPosition after, Set<JobKey> liveKeys, int wanted) {
        List<Job> found = new ArrayList<>();
        // A batch starts at the position's time, inclusive: jobs of that time named after it follow it.
        Instant below = after == null ? null : after.createdAt().plusNanos(1);
        int batch = Math.min(wanted, HISTORY_BATCH);
        do {
            JobHistory.Batch read = history.listed(query, below, batch);
            read.jobs().stream().filter(job -> !liveKeys.contains(job.key()) && inPage(query, after, job))
                    .forEach(found::add);
            below = read.next();
        } while (below != null && found.size() < wanted);
        return found;
    }

    private static boolean inPage(JobQuery query, ListPosition after, Job job) {
        return query.matches(job) && (after == null || after.isBefore(job));
    }

    /** The request with a generated name when it has none, so that the name is known before it is submitted. */
    public JobRequest withGeneratedName(JobRequest request) {
        return request.name() != null ? request : request.withName(JobNames.generate());
    }

    /**
     * The name a run again of {@code key} gets when none is given: the first of {@code <name>-2},
     * {@code -3}, ... that no job of its namespace has ({@link JobNames#rerun}).
     */
    public String rerunName(JobKey key) {
        return JobNames.rerun(key.name(), name -> backend.find(new JobKey(key.namespace(), name)).isPresent());
    }

    public Job cancel(JobKey key) {
        return backend.cancel(key).orElseThrow(() -> new JobNotFoundException(key));
    }

    /** Cancels the job, which ends {@code Cancelled} with this reason and message where its backend keeps them. */
    public Job cancel(JobKey key, String reason, String message) {
        return backend.cancel(key, reason, message).orElseThrow(() -> new JobNotFoundException(key));
    }

    /**
     * Removes the job from its backend, then from the history (which the backend's last changes may
     * have written to), then tells this service's listeners again: the backend told them while the
     * history still had the job, so they found it archived, not gone.
     */
    public void delete(JobKey key) {
        if (!DnsLabels.couldNameAJob(key.name())) {
            throw new JobNotFoundException(key); // nor is it written as the history's tombstone, which holds no such name
        }
        boolean live = backend.delete(key);
        boolean kept = history.delete(key);
        if (!live && !kept) {
            throw new JobNotFoundException(key);
        }
        listeners.forEach(listener -> listener.accept(key));
    }

    /**
     * Takes the stacks of the job's running trainers ({@link JobBackend#takeStacks}): only of a job that runs, as
     * only its processes are there to look at.
     */
    public StackDump takeStacks(JobKey key) {
        Job job = get(key);
        if (job.status().phase().isFinished() || backend.find(key).isEmpty()) {
            throw new JobConflictException("Job finished", "Stacks are taken of a job's running processes, and job '"
                    + key.name() + "' has ended (" + job.status().phase().wireName() + "): none is left. The stacks taken "
                    + "before it ended are at GET /jobs/" + key.name() + "/stacks.");
        }
        return backend.takeStacks(key, StackDump.REQUESTED).orElseThrow(() -> new JobNotFoundException(key));
    }

    /** The stack dumps kept of the job, newest first. */
    public List<StackDump> stacks(JobKey key) {
        get(key);
        return backend.stacks(key);
    }

    /**
     * Runs {@code command} in one replica of a held job ({@link JobBackend#exec}), as that replica ran.
     *
     * @throws ReplicaNotFoundException where the job has no such replica
     * @throws JobConflictException     where the job is not held ({@code Running}, reason {@code Held})
     */
    public ExecProcess exec(JobKey key, Role role, int index, List<String> command) {
        requireReplica(key, role, index);
        JobStatus status = get(key).status();
        if (status.phase() != JobPhase.RUNNING || !DebugHold.HELD.equals(status.reason())) {
            throw JobConflictException.notHeld(key);
        }
        return backend.exec(key, role, index, command).orElseThrow(() -> new JobNotFoundException(key));
    }

    /** Checks that the replica exists before anything is written, so that a 404 can still be sent. */
    public void requireReplica(JobKey key, Role role, int index) {
        JobPlan plan = get(key).plan();
        if (index < 0 || index >= plan.role(role).count()) {
            throw new ReplicaNotFoundException(key, role, index, plan.role(role).count());
        }
    }

    /**
     * Writes one replica's log of an earlier attempt of the job: from its backend ({@link JobBackend#writeEarlierLog}),
     * or, once the backend forgot the job, the end of it the history kept. The caller checked that one of them keeps
     * it ({@link #keepsEarlierAttemptLogs}, {@link #keptEarlierLog}) and that the attempt is earlier than the job's
     * last one.
     */
    public void writeEarlierLog(JobKey key, Role role, int index, int attempt, Integer tail, OutputStream out)
            throws IOException {
        if (backend.find(key).isEmpty()) {
            Optional<String> kept = history.keptEarlierLog(key, role, index, attempt);
            if (kept.isPresent()) {
                out.write(LogTails.last(kept.get(), tail).getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        if (!backend.writeEarlierLog(key, role, index, attempt, tail, out)) {
            throw new JobNotFoundException(key); // deleted meanwhile
        }
    }

    /** @see JobHistory#keptEarlierLog */
    public boolean keptEarlierLog(JobKey key, Role role, int index, int attempt) {
        return history.keptEarlierLog(key, role, index, attempt).isPresent();
    }

    /** @see JobBackend#keepsEarlierAttemptLogs */
    public boolean keepsEarlierAttemptLogs() {
        return backend.keepsEarlierAttemptLogs();
    }

    public void writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException {
        if (backend.find(key).isEmpty()) {
            Optional<String> kept = history.keptLog(key, role, index);
            if (kept.isPresent()) {
                out.write(LogTails.last(kept.get(), tail).getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        if (!backend.writeLogs(key, role, index, tail, follow, out)) {
            // requireReplica passed, so the job went away in between (deleted meanwhile)
            throw new JobNotFoundException(key);
        }
    }

    private JobPlan plan(JobRequest request, String namespace) {
        if (request.code().codePackage() != null) {
            PackageChecks.require(request.code().codePackage(), namespace, backend, packages);
        }
        JobPlan plan = planner.plan(withGeneratedName(request), namespace, backend.site());
        planSize.check(plan);
        if (plan.spec().lifecycle().debugHold() != null && !backend.holdsFailedAttempts()) {
            throw new InvalidJobRequestException(List.of(Violation.of("debug_hold",
                    RunTimeLimit.format(plan.spec().lifecycle().debugHold()), "this service's backend does not hold"
                            + " failed attempts (the local backend does, and Slurm with paddlejobs.slurm.client=cli): leave"
                            + " debug_hold out")));
        }
        backend.requireFits(plan);
        return plan.plusWarnings(backend.warnings(plan));
    }

}
