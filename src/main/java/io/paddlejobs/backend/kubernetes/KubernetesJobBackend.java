package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.backend.kubernetes.cluster.ApiErrors;
import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.cluster.JobCreator;
import io.paddlejobs.backend.kubernetes.cluster.LogStreams;
import io.paddlejobs.backend.kubernetes.cluster.NamespaceNotServedException;
import io.paddlejobs.backend.kubernetes.cluster.PlanRecovery;
import io.paddlejobs.backend.kubernetes.cluster.QuotaLedger;
import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.lifecycle.EarlierLogReads;
import io.paddlejobs.backend.kubernetes.lifecycle.KubernetesStalls;
import io.paddlejobs.backend.kubernetes.lifecycle.Restarts;
import io.paddlejobs.backend.kubernetes.manifest.JobSetManifest;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.PlacementAllowList;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import io.paddlejobs.backend.kubernetes.queue.ClusterEvents;
import io.paddlejobs.backend.kubernetes.status.JobSetView;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.LogTails;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.SharedUsage;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import io.paddlejobs.planning.Violation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each job as a headless Service, an Indexed pserver Job and an Indexed trainer Job (see
 * the manifest classes), and reads every status from informer caches. The cluster is the only
 * record: any number of replicas of this service can serve the same jobs, and a restarted one
 * finds them all again.
 */
public final class KubernetesJobBackend implements JobBackend {

    private static final Logger log = LoggerFactory.getLogger(KubernetesJobBackend.class);
    private static final int NOT_FOUND = 404;
    private final KubernetesProperties settings;
    private final Duration cacheWait;
    private final ClusterCache cache;
    private final JobCreator creator;
    private final Workloads workloads;
    private final SharedUsage sharedUsage;
    private final PlanRecovery plans;
    private final LogStreams logs;
    private final EarlierLogReads earlierLogs;
    private final ClusterEvents events;
    private final DataClaims claims;
    private final ShippedCode.Source code;
    private final RestartBackoff backoff;
    private final KubernetesStalls stalls;
    private final Clock clock;
    private final boolean jobSets;
    private final Site site;

    /** Reads the namespace's data claim: a function, so that it is one API call at submit and nothing else. */
    public interface DataClaims {
        DataClaim check(String namespace);
    }

    /**
     * @param cacheWait how long a job created a moment ago by another replica of the service may take to reach the cache
     * @param jobSets   whether jobs run as JobSets ({@link JobSetManifest}) rather than as two Jobs
     */
    KubernetesJobBackend(KubernetesProperties settings, Duration cacheWait, ClusterCache cache, JobCreator creator,
                         Workloads workloads, PlanRecovery plans, LogStreams logs, ClusterEvents events, DataClaims claims, ShippedCode.Source code,
                         RestartBackoff backoff, KubernetesStalls stalls, Clock clock, boolean jobSets) {
        this.jobSets = jobSets;
        this.site = new KubernetesSite(jobSets);
        this.settings = settings;
        this.cacheWait = cacheWait;
        this.cache = cache;
        this.creator = creator;
        this.workloads = workloads;
        this.plans = plans;
        this.logs = logs;
        this.earlierLogs = new EarlierLogReads(workloads.client(), clock);
        this.events = events;
        this.claims = claims;
        this.code = code;
        this.backoff = backoff;
        this.stalls = stalls;
        this.clock = clock;
        this.sharedUsage = new QuotaLedger(workloads.client(), this::list, clock);
        cache.addListener(key -> {
            if (cache.find(key).isEmpty()) {
                plans.forget(key);
                stalls.forget(key);
            }
        });
    }

    /** Pods fetch a package from this service, so only once it is configured where they reach it. */
    @Override
    public void newStepReported(JobKey key, String replica, java.time.Instant at) {
        stalls.sawNewStep(key, replica, at);
    }

    @Override
    public boolean shipsCodePackages() {
        return code.configured();
    }

    @Override
    public String whyNoCodePackages() {
        return "On Kubernetes, a job's pods fetch its package from this service, and the operator has not said where "
                + "they reach it (paddlejobs.kubernetes.packages.service-url); until then, build the code into the image "
                + "and leave package out.";
    }

    /** Pods run under Pod Security "restricted": no ptrace, so py-spy cannot attach to a trainer from anywhere. */
    @Override
    public String whyNoStacks() {
        return "On Kubernetes, pods run under Pod Security \"restricted\", which allows no ptrace, so py-spy cannot "
                + "attach to a trainer. Have the program dump its own stacks: faulthandler.register(signal.SIGUSR1, "
                + "all_threads=True) at its start, then kubectl exec POD -- kill -USR1 1 writes every thread's stack into "
                + "the pod's log.";
    }

    /** Where pods go and what they mount, as far as the operator allows the namespace; checked at submit and in every dry run. */
    @Override
    public void requireFits(JobPlan plan) {
        List<Violation> violations = PlacementAllowList.violations(plan, settings.placement());
        if (!violations.isEmpty()) {
            throw new InvalidJobRequestException(violations);
        }
    }

    @Override
    public Site site() {
        return site;
    }

    @Override
    public Job submit(JobPlan plan) {
        if (!cache.serves(plan.namespace())) {
            throw new NamespaceNotServedException(plan.namespace());
        }
        DataClaim claim = claims.check(plan.namespace());
        if (jobSets) {
            var created = workloads.jobSets().create(plan, claim, code.of(plan), settings);
            return new Job(plan, JobStatusMapper.map(plan, JobSetView.observe(created, null, null, List.of())));
        }
        var created = creator.create(plan, claim, code.of(plan));
        return new Job(plan, JobStatusMapper.map(plan, new ObservedJob(created, null, List.of())));
    }

    /**
     * The caller looks the existing job up next, in the cache; a job another replica of this
     * service created a moment ago may not have reached it yet, and would look like a stranger.
     */
    @Override
    public void awaitFound(JobKey key) {
        cache.awaitUntil(key, () -> cache.find(key).isPresent(), cacheWait);
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return cache.find(key).flatMap(this::toJob);
    }

    @Override
    public List<Job> list(String namespace) {
        return cache.list(namespace).stream().map(this::toJob).flatMap(Optional::stream).toList();
    }

    @Override
    public void onChange(Consumer<JobKey> listener) {
        cache.addListener(listener);
    }

    /**
     * A cancel made while this service restarts the job goes to the next attempt's trainer Job, once it is
     * made: the failed attempt's is on its way out (and may be gone when the cancel reaches it).
     */
    @Override
    public Optional<Job> cancel(JobKey key) {
        return cancel(key, null, null);
    }

    /** A cancel whose reason and message the job keeps (on its trainer Job or JobSet) in place of a cancel's own. */
    @Override
    public Optional<Job> cancel(JobKey key, String reason, String message) {
        awaitRestartMade(key);
        try {
            return cancelAsCached(key, reason, message);
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND && awaitRestartMade(key)) {
                try {
                    return cancelAsCached(key, reason, message);
                } catch (KubernetesClientException again) {
                    throw ApiErrors.translate(again, "cancel '" + key.name() + "'");
                }
            }
            throw ApiErrors.translate(e, "cancel '" + key.name() + "'");
        }
    }

    /**
     * Waits while the job shows {@code Restarting} but the reconciler has yet to make the restart (a failed attempt
     * reads as restarting at once), and while the restart is being made; the cancel then ends the next attempt, and
     * the job keeps the restart it showed.
     *
     * @return whether a restart was under way
     */
    private boolean awaitRestartMade(JobKey key) {
        if (!restartUnderWay(key)) {
            return false;
        }
        cache.awaitUntil(key, () -> !restartUnderWay(key), cacheWait);
        return true;
    }

    private boolean restartUnderWay(JobKey key) {
        return cache.restarting(key) || restartDue(key);
    }

    /** Whether the job's failed attempt reads as restarting while its trainer Job carries no restart yet. */
    private boolean restartDue(JobKey key) {
        Optional<ObservedJob> observed = cache.find(key);
        return observed.isPresent() && !observed.get().jobSet() && !observed.get().attempts().waiting()
                && toJob(observed.get()).map(job -> RestartDecision.RESTARTING.equals(job.status().reason())).orElse(false);
    }

    private Optional<Job> cancelAsCached(JobKey key, String reason, String message) {
        Optional<ObservedJob> observed = cache.find(key);
        if (observed.isEmpty()) {
            return Optional.empty();
        }
        Optional<Job> current = toJob(observed.get());
        if (current.isEmpty() || current.get().status().phase().isFinished()) {
            return current;
        }
        if (observed.get().jobSet()) {
            var cancelled = workloads.jobSets().cancel(key, clock.instant(), reason, message, observed.get().queued());
            return toJob(JobSetView.observe(cancelled, observed.get().trainerJob(), observed.get().pserverJob(),
                    observed.get().pods()));
        }
        boolean queued = observed.get().queued();
        var cancelled = workloads.cancelTrainers(key, clock.instant(), reason, message, queued);
        if (observed.get().pserverJob() != null) { // a collective job has none
            workloads.stopPservers(key, queued);
        }
        if (observed.get().gang()) {
            workloads.deletePodGroup(key); // its place in Volcano's queue, given back at once
        }
        // Answer from the patched Job: the informer may not have seen the change yet.
        return toJob(new ObservedJob(cancelled, observed.get().pserverJob(), observed.get().pods()));
    }

    @Override
    public boolean delete(JobKey key) {
        try {
            boolean existed = workloads.delete(key) | (jobSets && workloads.jobSets().delete(key));
            cache.forgetStandIn(key);
            plans.forget(key);
            events.forget(key);
            stalls.forget(key);
            return existed;
        } catch (KubernetesClientException e) {
            throw ApiErrors.translate(e, "delete '" + key.name() + "'");
        }
    }

    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException {
        Optional<ObservedJob> observed = replicaOf(key, role, index);
        if (observed.isEmpty()) {
            return false;
        }
        logs.write(observed.get(), role, index, tail, follow, out);
        return true;
    }

    /** The job as the cache holds it, where it has this replica. */
    private Optional<ObservedJob> replicaOf(JobKey key, Role role, int index) {
        Optional<ObservedJob> observed = cache.find(key);
        Optional<Job> job = observed.flatMap(this::toJob);
        return job.isPresent() && index >= 0 && index < job.get().plan().role(role).count() ? observed : Optional.empty();
    }

    /** What a restart read of each replica's log before it deleted the attempt's pods ({@link EarlierLogs}); not under JobSet. */
    @Override
    public boolean keepsEarlierAttemptLogs() {
        return !jobSets;
    }

    @Override
    public boolean writeEarlierLog(JobKey key, Role role, int index, int attempt, Integer tail, OutputStream out)
            throws IOException {
        Optional<ObservedJob> observed = replicaOf(key, role, index);
        if (observed.isEmpty()) {
            return false;
        }
        String replica = Replica.idOf(role, index);
        Optional<String> kept = earlierLogs.of(key, observed.get().trainerJob().getMetadata().getName(), attempt, replica);
        if (kept.isPresent()) {
            out.write(LogTails.last(kept.get(), tail).getBytes(StandardCharsets.UTF_8));
        }
        return true;
    }

    /** Every replica of the service counts a namespace's jobs from the cluster, and claims places in it ({@link QuotaLedger}). */
    @Override
    public Optional<SharedUsage> sharedUsage() {
        return Optional.of(sharedUsage);
    }

    @Override
    public List<Map<String, Object>> manifests(JobPlan plan) {
        // A dry run says what a submit would: a namespace without a usable claim is refused here too.
        DataClaim claim = cache.serves(plan.namespace()) ? claims.check(plan.namespace())
                : DataClaim.assumed(settings.dataClaim());
        return jobSets ? List.of(Manifests.asMap(JobSetManifest.desired(plan, settings, claim, code.of(plan))))
                : Manifests.desired(plan, settings, claim, code.of(plan)).asMaps();
    }

    /**
     * The same objects with no read of the cluster: the data claim is taken as named in the settings and
     * writable, as a submit would find it where it is usable; the rest is what only the cluster can say.
     */
    @Override
    public OfflineManifests offlineManifests(JobPlan plan) {
        DataClaim claim = DataClaim.assumed(settings.dataClaim());
        List<Map<String, Object>> objects = jobSets
                ? List.of(Manifests.asMap(JobSetManifest.desired(plan, settings, claim, code.of(plan))))
                : Manifests.desired(plan, settings, claim, code.of(plan)).asMaps();
        return new OfflineManifests(objects, List.of(
                "that namespace " + plan.namespace() + " has the PersistentVolumeClaim " + settings.dataClaim()
                        + " and that it is ReadWriteMany (else a submit is refused: 409 data-claim-unusable;"
                        + " a read-only one is mounted read-only)",
                "the namespace's ResourceQuota and LimitRange, and its quota across the service's replicas",
                "the API server's own validation and admission (webhooks, Pod Security), which a submit meets",
                "whether nodes have the GPUs, CPUs and memory asked for, and when a queue (Kueue, Volcano) admits the job",
                "the workload (" + (jobSets ? "a JobSet" : "two Jobs and a Service") + ") is the one this service chose"
                        + " at its start (paddlejobs.kubernetes.workload)"));
    }

    private Optional<Job> toJob(ObservedJob observed) {
        try {
            JobPlan plan = plans.planOf(observed.trainerJob());
            ObservedJob explained = observed.explainedBy(events.of(new JobKey(observed.namespace(), observed.name())));
            JobStatus status = JobStatusMapper.map(plan, explained);
            Instant now = clock.instant();
            // The reconciler acts on a stall within a moment; until then the job already shows what it will do.
            status = KubernetesStalls.shown(plan, status, stalls.silence(plan, explained, status, now), now);
            return Optional.of(new Job(plan, Restarts.shown(plan, explained, status, now, backoff)));
        } catch (RuntimeException e) {
            // Someone else's object wearing our label, or a spec from a future version: not a job we can show.
            log.debug("Skipping {}/{}: {}", observed.namespace(), observed.trainerJob().getMetadata().getName(), e.toString());
            return Optional.empty();
        }
    }
}
