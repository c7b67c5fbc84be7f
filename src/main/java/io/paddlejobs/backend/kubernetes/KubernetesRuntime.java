package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.kubernetes.cluster.CheckedClaims;
import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.cluster.JobCreator;
import io.paddlejobs.backend.kubernetes.cluster.JobSets;
import io.paddlejobs.backend.kubernetes.cluster.LogStreams;
import io.paddlejobs.backend.kubernetes.cluster.PlanRecovery;
import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.lifecycle.KubernetesStalls;
import io.paddlejobs.backend.kubernetes.lifecycle.LifecycleReconciler;
import io.paddlejobs.backend.kubernetes.lifecycle.Restarts;
import io.paddlejobs.backend.kubernetes.lifecycle.TrainerLines;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import io.paddlejobs.backend.kubernetes.queue.ClusterEvents;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Clock;
import java.time.Duration;

/**
 * The Kubernetes backend wired together, the one way it is wired (the service and the tests):
 * informers, the lifecycle reconciler listening to them, and the backend reading from them.
 * The informers start last, once every listener is in place.
 */
public record KubernetesRuntime(KubernetesClient client, ClusterCache cache, LifecycleReconciler reconciler,
                         KubernetesJobBackend jobs) implements AutoCloseable {

    /** The first restart of a job waits this long, doubling up to five minutes, as {@code paddlejobs.restarts.*} default to. */
    public static final RestartBackoff DEFAULT_BACKOFF = new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    static KubernetesRuntime start(KubernetesClient client, KubernetesProperties settings, JobPlanner planner,
                                   Clock clock) {
        return start(client, settings, planner, DEFAULT_BACKOFF, clock);
    }

    static KubernetesRuntime start(KubernetesClient client, KubernetesProperties settings, JobPlanner planner,
                                   RestartBackoff backoff, Clock clock) {
        return start(client, settings, ShippedCode.Source.NONE, planner, backoff, clock);
    }

    /**
     * @param code    where jobs' packages come from ({@link ShippedCode.Source#NONE}: jobs with one are refused)
     * @param backoff how long a failed job waits before its next attempt
     */
    static KubernetesRuntime start(KubernetesClient client, KubernetesProperties settings, ShippedCode.Source code,
                                   JobPlanner planner, RestartBackoff backoff, Clock clock) {
        // Under Volcano a job is always two Jobs: a JobSet holds its trainers back, and a gang waits for all (KubernetesProperties).
        boolean jobSets = !VolcanoGroups.chosen(settings) && JobSets.chosen(client, settings.workload());
        ClusterCache cache = new ClusterCache(client, settings.namespaces(), settings.resync().toMillis(), jobSets);
        PlanRecovery plans = new PlanRecovery(planner);
        ClusterEvents events = new ClusterEvents(client, clock);
        Workloads workloads = new Workloads(client);
        CheckedClaims claims = new CheckedClaims(namespace -> DataClaim.check(client, settings, namespace), clock);
        TrainerLines lines = new TrainerLines(clock);
        KubernetesStalls stalls = new KubernetesStalls(lines);
        LogStreams logs = new LogStreams(client, lines);
        LifecycleReconciler reconciler = new LifecycleReconciler(cache, workloads, plans, events, settings,
                new Restarts(client, cache, settings, claims, code, logs), backoff, stalls, clock);
        cache.addListener(reconciler);
        // A job another replica created reaches the cache within about one request's time.
        Duration cacheWait = Duration.ofMillis(client.getConfiguration().getRequestTimeout());
        KubernetesJobBackend jobs = new KubernetesJobBackend(settings, cacheWait, cache, new JobCreator(client, settings),
                workloads, plans, logs, events, claims, code, backoff, stalls, clock, jobSets);
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
