package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.paddlejobs.backend.JobChanges;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
final class ClusterCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterCache.class);
    private static final String BY_JOB = "byJob";
    private static final String ALL = "";

    /** The informers of one scope: a namespace, or all of them. */
    private record Scope(SharedIndexInformer<Job> jobs, SharedIndexInformer<Pod> pods) {

        List<SharedIndexInformer<?>> all() {
            return List.of(jobs, pods);
        }
    }

    private final Map<String, Scope> scopes;
    private final JobChanges listeners = new JobChanges();

    /** @param resyncMillis how often every job is offered to the listeners again, changed or not (0: never) */
    ClusterCache(KubernetesClient client, List<String> namespaces, long resyncMillis) {
        Map<String, Scope> byNamespace = new java.util.LinkedHashMap<>();
        if (namespaces.isEmpty()) {
            byNamespace.put(ALL, scope(client, null, listeners, resyncMillis));
        } else {
            namespaces.forEach(ns -> byNamespace.put(ns, scope(client, ns, listeners, resyncMillis)));
        }
        this.scopes = Map.copyOf(byNamespace);
    }

    /**
     * Calls {@code listener} with every job the cache holds now, then with the job of every object
     * added, changed or removed (and at every resync).
     */
    void addListener(Consumer<JobKey> listener) {
        listeners.add(listener, scopes.values().stream().flatMap(scope -> scope.jobs().getStore().list().stream())
                .map(ClusterCache::jobKey).filter(Objects::nonNull).toList());
    }

    /** Tells the listeners of a change the informers cannot see (a job falling silent). */
    void told(JobKey key) {
        listeners.accept(key);
    }

    /** Starts every informer without waiting for it: a cluster that is down must not stop the service starting. */
    void start() {
        scopes.values().forEach(scope -> scope.all().forEach(informer -> informer.start().whenComplete((ok, error) -> {
            if (error != null) {
                log.warn("Informer for {} stopped: {}", informer.getApiTypeClass().getSimpleName(), error.toString());
            }
        })));
    }

    boolean serves(String namespace) {
        return scopes.containsKey(ALL) || scopes.containsKey(namespace);
    }

    /** Whether every store has been filled once and every watch is open. */
    boolean synced() {
        return scopes.values().stream().flatMap(s -> s.all().stream()).allMatch(SharedIndexInformer::hasSynced);
    }

    boolean watching() {
        return scopes.values().stream().flatMap(s -> s.all().stream()).allMatch(SharedIndexInformer::isWatching);
    }

    Optional<ObservedJob> find(JobKey key) {
        Scope scope = scopeOf(key.namespace());
        if (scope == null) {
            return Optional.empty();
        }
        Job job = scope.jobs().getStore().getByKey(storeKey(key.namespace(), ObjectNames.trainerJob(key.name())));
        return Optional.ofNullable(job).map(j -> observe(scope, j));
    }

    /** Every job of a namespace, in no particular order. */
    List<ObservedJob> list(String namespace) {
        Scope scope = scopeOf(namespace);
        if (scope == null) {
            return List.of();
        }
        List<ObservedJob> jobs = new ArrayList<>();
        for (Job job : scope.jobs().getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)) {
            var labels = job.getMetadata().getLabels();
            if (labels.containsKey(JobLabels.NAME) && Role.TRAINER.label().equals(labels.get(JobLabels.ROLE))) {
                jobs.add(observe(scope, job));
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

    private Scope scopeOf(String namespace) {
        Scope scope = scopes.get(namespace);
        return scope != null ? scope : scopes.get(ALL);
    }

    private static Scope scope(KubernetesClient client, String namespace, Consumer<JobKey> onChange, long resyncMillis) {
        var jobs = informer(namespace == null ? client.batch().v1().jobs().inAnyNamespace()
                : client.batch().v1().jobs().inNamespace(namespace), Slim::job, onChange, resyncMillis);
        // Pod changes matter too: a pserver becoming ready releases the trainers, one failing fails the job.
        var pods = informer(namespace == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(namespace),
                Slim::pod, onChange, 0);
        pods.addIndexers(Map.of(BY_JOB, byJob()));
        return new Scope(jobs, pods);
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

    static JobKey jobKey(HasMetadata object) {
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
