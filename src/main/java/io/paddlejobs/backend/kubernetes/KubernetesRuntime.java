package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.planning.JobPlanner;
import java.time.Clock;
import java.time.Duration;

/**
 * The Kubernetes backend wired together, the one way it is wired (the service and the tests):
 * informers, the lifecycle reconciler listening to them, and the backend reading from them.
 * The informers start last, once every listener is in place.
 */
record KubernetesRuntime(KubernetesClient client, ClusterCache cache, LifecycleReconciler reconciler,
                         KubernetesJobBackend jobs) implements AutoCloseable {

    static KubernetesRuntime start(KubernetesClient client, KubernetesProperties settings, JobPlanner planner,
                                   Clock clock) {
        return start(client, settings, ShippedCode.Source.NONE, planner, clock);
    }

    /** @param code where jobs' packages come from ({@link ShippedCode.Source#NONE}: jobs with one are refused) */
    static KubernetesRuntime start(KubernetesClient client, KubernetesProperties settings, ShippedCode.Source code,
                                   JobPlanner planner, Clock clock) {
        ClusterCache cache = new ClusterCache(client, settings.namespaces(), settings.resync().toMillis());
        PlanRecovery plans = new PlanRecovery(planner);
        ClusterEvents events = new ClusterEvents(client, clock);
        Workloads workloads = new Workloads(client);
        LifecycleReconciler reconciler = new LifecycleReconciler(cache, workloads, plans, events, settings, clock);
        cache.addListener(reconciler);
        // A job another replica created reaches the cache within about one request's time.
        Duration cacheWait = Duration.ofMillis(client.getConfiguration().getRequestTimeout());
        KubernetesJobBackend jobs = new KubernetesJobBackend(settings, cacheWait, cache, new JobCreator(client, settings),
                workloads, plans, new LogStreams(client), events,
                new CheckedClaims(namespace -> DataClaim.check(client, settings, namespace), clock), code, clock);
        cache.start();
        return new KubernetesRuntime(client, cache, reconciler, jobs);
    }

    /** Stops the reconciler and the informers; the client is its creator's to close. */
    @Override
    public void close() {
        reconciler.close();
        cache.close();
    }
}
