package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.planning.JobRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The backend wired as in production (the same classes and the shipped client timeouts, no
 * client-side retries) against the real control plane, as the holder of a bearer token.
 */
final class RealBackends {

    private RealBackends() {
    }

    static KubernetesProperties settings(ControlPlane plane) {
        return MockCluster.settings(plane.masterUrl(), List.of());
    }

    static MockCluster.Backend start(ControlPlane plane, String token) {
        return start(plane, token, settings(plane));
    }

    static MockCluster.Backend start(ControlPlane plane, String token, KubernetesProperties settings) {
        var config = new ConfigBuilder(KubernetesClients.config(settings)).withMasterUrl(plane.masterUrl())
                .withCaCertFile(plane.config(token).getCaCertFile()).withOauthToken(token).build();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        ClusterCache cache = new ClusterCache(client, settings.namespaces(), Duration.ofMinutes(5).toMillis());
        PserverReconciler reconciler = new PserverReconciler(cache, new Workloads(client));
        cache.addListener(reconciler);
        KubernetesJobBackend jobs = new KubernetesJobBackend(settings, cache, new JobCreator(client, settings),
                new Workloads(client), new PlanRecovery(Plans.POLICY), new LogStreams(client, settings.retryAfter()),
                Clock.systemUTC());
        cache.start();
        return new MockCluster.Backend(client, cache, reconciler, jobs);
    }

    /** A job of {@code trainers} trainers and one pserver, small enough for many on the fake nodes. */
    static JobRequest request(String name, int trainers, String image, Map<String, String> labels) {
        return new JobRequest(name, "python train.py", "python train.py", image, null, null, null, trainers, null,
                null, null, 1, null, null, null, null, null, null, Map.of(), labels);
    }

    /** One trainer with {@code gpus} GPUs (on a GPU image) and one pserver. */
    static JobRequest gpuRequest(String name, int gpus, Map<String, String> labels) {
        return new JobRequest(name, "python train.py", "python train.py",
                "paddlepaddle/paddle:2.6.1-gpu-cuda12.0-cudnn8.9-trt8.6", gpus, null, null, 1, null, null, null, 1,
                null, null, null, null, null, null, Map.of(), labels);
    }
}
