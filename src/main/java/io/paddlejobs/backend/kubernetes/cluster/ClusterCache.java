package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.paddlejobs.backend.JobChanges;
import io.paddlejobs.backend.kubernetes.lifecycle.RestartStandIns;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.JobSetManifest;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.status.JobSetView;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shared informers over the Jobs (trainers and pservers) and pods this service manages (label
 * {@code app.kubernetes.io/managed-by=paddle-jobs}), in every namespace or the configured ones.
 * Status and list reads are answered from their stores: no API call per read. Informers keep
 * retrying while the API server is away, and catch up when it is back.
 *
 * <p>The Jobs informer resyncs: every job is offered to the listeners again each period, changed
 * or not. The period must be the informer's own; fabric8, like client-go, drops a handler's
 * period that the informer was not built with.
 */
public final class ClusterCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterCache.class);
    private static final String BY_JOB = "byJob";
    private static final String ALL = "";

    /** The informers of one scope: a namespace, or all of them; {@code jobSets} only where jobs run as JobSets. */
    private record Scope(SharedIndexInformer<Job> jobs, SharedIndexInformer<Pod> pods,
                         SharedIndexInformer<GenericKubernetesResource> jobSets) {

        List<SharedIndexInformer<?>> all() {
            return jobSets == null ? List.of(jobs, pods) : List.of(jobs, pods, jobSets);
        }
    }

    private final Map<String, Scope> scopes;
    private final JobChanges listeners = new JobChanges();
    private final RestartStandIns standIns = new RestartStandIns();
    /** Threads waiting for something to hold of a job's cached objects ({@link #awaitUntil}), by job. */
    private final Map<JobKey, List<Waiter>> waiters = new ConcurrentHashMap<>();

    private record Waiter(BooleanSupplier holds, CompletableFuture<Void> done) {
    }

    /** @param resyncMillis how often every job is offered to the listeners again, changed or not (0: never) */
    public ClusterCache(KubernetesClient client, List<String> namespaces, long resyncMillis) {
        this(client, namespaces, resyncMillis, false);
    }

    /** @param jobSets whether JobSets are watched too: jobs run as JobSets ({@link JobSetManifest}) */
    public ClusterCache(KubernetesClient client, List<String> namespaces, long resyncMillis, boolean jobSets) {
        Map<String, Scope> byNamespace = new java.util.LinkedHashMap<>();
        if (namespaces.isEmpty()) {
            byNamespace.put(ALL, scope(client, null, listeners, resyncMillis, jobSets));
        } else {
            namespaces.forEach(ns -> byNamespace.put(ns, scope(client, ns, listeners, resyncMillis, jobSets)));
        }
        this.scopes = Map.copyOf(byNamespace);
        listeners.add(this::wake, List.of());
    }

    /**
     * Waits, within {@code within}, until {@code holds} is true of the job's cached objects: it is looked at
     * now, then at each change of the job the informers see (on their thread, so it must be a quick read).
     * No spin: the waiting thread sleeps until a change wakes it. Returns whether it held in time.
     */
    public boolean awaitUntil(JobKey key, BooleanSupplier holds, Duration within) {
        if (holds.getAsBoolean()) {
            return true;
        }
        Waiter waiter = new Waiter(holds, new CompletableFuture<>());
        waiters.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(waiter);
        try {
            if (holds.getAsBoolean()) {
                return true; // it changed between the first look and the waiter's registration
            }
            waiter.done().get(within.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            waiters.computeIfPresent(key, (k, list) -> {
                list.remove(waiter);
                return list.isEmpty() ? null : list;
            });
        }
    }

    private void wake(JobKey key) {
        List<Waiter> waiting = waiters.get(key);
        if (waiting != null) {
            waiting.stream().filter(waiter -> waiter.holds().getAsBoolean()).forEach(waiter -> waiter.done().complete(null));
        }
    }

    /**
     * Calls {@code listener} with every job the cache holds now, then with the job of every object
     * added, changed or removed (and at every resync).
     */
    public void addListener(Consumer<JobKey> listener) {
        listeners.add(listener, scopes.values().stream().flatMap(scope -> scope.jobSets() == null
                        ? scope.jobs().getStore().list().stream()
                        : java.util.stream.Stream.concat(scope.jobs().getStore().list().stream(),
                                scope.jobSets().getStore().list().stream()))
                .map(ClusterCache::jobKey).filter(Objects::nonNull).distinct().toList());
    }

    /** Tells the listeners of a change the informers cannot see (a job falling silent). */
    public void told(JobKey key) {
        listeners.accept(key);
    }

    /** Starts every informer without waiting for it: a cluster that is down must not stop the service starting. */
    public void start() {
        scopes.values().forEach(scope -> scope.all().forEach(informer -> informer.start().whenComplete((ok, error) -> {
            if (error != null) {
                log.warn("Informer for {} stopped: {}", informer.getApiTypeClass().getSimpleName(), error.toString());
            }
        })));
    }

    public boolean serves(String namespace) {
        return scopes.containsKey(ALL) || scopes.containsKey(namespace);
    }

    /** Whether every store has been filled once and every watch is open. */
    public boolean synced() {
        return scopes.values().stream().flatMap(s -> s.all().stream()).allMatch(SharedIndexInformer::hasSynced);
    }

    public boolean watching() {
        return scopes.values().stream().flatMap(s -> s.all().stream()).allMatch(SharedIndexInformer::isWatching);
    }

    /** Shows a failed trainer Job in its job's place while its restart makes the next one ({@link RestartStandIns}). */
    public void standInDuringRestart(Job failed) {
        standIns.standIn(failed);
    }

    /** The job was deleted, or its restart was not made: nothing stands in for its trainer Job. */
    public void forgetStandIn(JobKey key) {
        standIns.forget(key.namespace(), ObjectNames.trainerJob(key.name()));
        wake(key); // whoever waits for the restart to be made: it will not be
    }

    /**
     * Whether a restart of this service's making is replacing the job's trainer Job, and the next one has
     * not reached the cache yet: a change made to the job now would be made to the failed one.
     */
    public boolean restarting(JobKey key) {
        Scope scope = scopeOf(key.namespace());
        String trainers = storeKey(key.namespace(), ObjectNames.trainerJob(key.name()));
        return scope != null && standIns.waitsForSuccessor(trainers, scope.jobs().getStore().getByKey(trainers));
    }

    /** The job as a reader sees it: during a restart of this service's making, its failed attempt stands in. */
    public Optional<ObservedJob> find(JobKey key) {
        return find(key, true);
    }

    /** The job as the informers hold it, to act on: a stand-in is no object to change. */
    public Optional<ObservedJob> findWithoutStandIns(JobKey key) {
        return find(key, false);
    }

    private Optional<ObservedJob> find(JobKey key, boolean withStandIns) {
        Scope scope = scopeOf(key.namespace());
        if (scope == null) {
            return Optional.empty();
        }
        String trainers = storeKey(key.namespace(), ObjectNames.trainerJob(key.name()));
        Job cached = scope.jobs().getStore().getByKey(trainers);
        Job job = withStandIns ? standIns.orStandIn(trainers, cached) : cached;
        if (job == null && scope.jobSets() != null) {
            GenericKubernetesResource jobSet = scope.jobSets().getStore().getByKey(storeKey(key.namespace(), key.name()));
            return Optional.ofNullable(jobSet).map(js -> observe(scope, js));
        }
        return Optional.ofNullable(job).map(j -> observe(scope, j));
    }

    /** Every job of a namespace, in no particular order. */
    public List<ObservedJob> list(String namespace) {
        Scope scope = scopeOf(namespace);
        if (scope == null) {
            return List.of();
        }
        List<ObservedJob> jobs = new ArrayList<>();
        for (Job job : scope.jobs().getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)) {
            var labels = job.getMetadata().getLabels();
            if (labels.containsKey(JobLabels.NAME) && Role.TRAINER.label().equals(labels.get(JobLabels.ROLE))
                    && !JobSetView.isChild(job)) {
                jobs.add(observe(scope, job));
            }
        }
        for (String trainers : standIns.keysIn(namespace)) {
            Job standIn = scope.jobs().getStore().getByKey(trainers) == null ? standIns.orStandIn(trainers, null) : null;
            if (standIn != null) {
                jobs.add(observe(scope, standIn));
            }
        }
        if (scope.jobSets() != null) {
            for (GenericKubernetesResource jobSet : scope.jobSets().getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)) {
                if (jobKey(jobSet) != null) {
                    jobs.add(observe(scope, jobSet));
                }
            }
        }
        return jobs;
    }

    private ObservedJob observe(Scope scope, Job job) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getLabels().get(JobLabels.NAME);
        Job pservers = scope.jobs().getStore().getByKey(storeKey(ns, ObjectNames.pserverJob(name)));
        List<Pod> pods = scope.pods().getIndexer().byIndex(BY_JOB, ns + "/" + name);
        return new ObservedJob(job, pservers, pods);
    }

    /** A JobSet job, read through its child Jobs and pods ({@link JobSetView}). */
    private ObservedJob observe(Scope scope, GenericKubernetesResource jobSet) {
        String ns = jobSet.getMetadata().getNamespace();
        String name = jobKey(jobSet).name();
        Job trainers = scope.jobs().getStore().getByKey(storeKey(ns, ObjectNames.jobSetChild(name, Role.TRAINER)));
        Job pservers = scope.jobs().getStore().getByKey(storeKey(ns, ObjectNames.jobSetChild(name, Role.PSERVER)));
        return JobSetView.observe(jobSet, trainers, pservers, scope.pods().getIndexer().byIndex(BY_JOB, ns + "/" + name));
    }

    private Scope scopeOf(String namespace) {
        Scope scope = scopes.get(namespace);
        return scope != null ? scope : scopes.get(ALL);
    }

    private static Scope scope(KubernetesClient client, String namespace, Consumer<JobKey> onChange, long resyncMillis,
                               boolean jobSets) {
        var jobs = informer(namespace == null ? client.batch().v1().jobs().inAnyNamespace()
                : client.batch().v1().jobs().inNamespace(namespace), Slim::job, onChange, resyncMillis);
        // Pod changes matter too: a pserver becoming ready releases the trainers, one failing fails the job.
        var pods = informer(namespace == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(namespace),
                Slim::pod, onChange, 0);
        pods.addIndexers(Map.of(BY_JOB, byJob()));
        if (!jobSets) {
            return new Scope(jobs, pods, null);
        }
        var resources = client.genericKubernetesResources(JobSets.API_VERSION, JobSets.KIND);
        var sets = informer(namespace == null ? resources.inAnyNamespace() : resources.inNamespace(namespace),
                UnaryOperator.identity(), onChange, resyncMillis);
        return new Scope(jobs, pods, sets);
    }

    private static <T extends HasMetadata> SharedIndexInformer<T> informer(FilterWatchListDeletable<T, ?, ?> objects,
            UnaryOperator<T> slim, Consumer<JobKey> onChange, long resyncMillis) {
        SharedIndexInformer<T> informer = objects.withLabels(JobLabels.managed()).runnableInformer(resyncMillis)
                .itemStore(new SlimItemStore<>(slim));
        // Keep retrying, also before the first sync: the API server may come up after this service.
        informer.exceptionHandler((started, error) -> true);
        informer.addEventHandler(new Notifier<>(onChange));
        return informer;
    }

    private static Function<Pod, List<String>> byJob() {
        return pod -> {
            String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(JobLabels.NAME);
            return job == null ? List.of() : List.of(pod.getMetadata().getNamespace() + "/" + job);
        };
    }

    public static JobKey jobKey(HasMetadata object) {
        var labels = object.getMetadata().getLabels();
        String name = labels == null ? null : labels.get(JobLabels.NAME);
        return name == null ? null : new JobKey(object.getMetadata().getNamespace(), name);
    }

    private static String storeKey(String namespace, String name) {
        return namespace + "/" + name;
    }

    @Override
    public void close() {
        scopes.values().forEach(scope -> scope.all().forEach(SharedIndexInformer::stop));
    }

    /** Tells which job an added, changed or removed object belongs to. */
    private record Notifier<T extends HasMetadata>(Consumer<JobKey> onChange) implements ResourceEventHandler<T> {

        @Override
        public void onAdd(T object) {
            notify(object);
        }

        @Override
        public void onUpdate(T before, T after) {
            notify(after);
        }

        @Override
        public void onDelete(T object, boolean finalStateUnknown) {
            notify(object);
        }

        private void notify(T object) {
            JobKey key = jobKey(object);
            if (key != null) {
                onChange.accept(key);
            }
        }
    }
}
