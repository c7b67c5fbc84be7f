package io.paddlejobs.backend.kubernetes;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The backend wired as the service wires it ({@link KubernetesRuntime}: the same classes and the
 * shipped client timeouts, no client-side retries) against the real control plane, as the holder
 * of a bearer token.
 */
final class RealBackends {

    private static final Duration SYNC_DEADLINE = Duration.ofSeconds(60);

    private RealBackends() {
    }

    static MockCluster.Backend start(ControlPlane plane, String token) {
        return start(plane, token, MockCluster.settings(List.of()));
    }

    /** Started, and once its informers have listed what is there (as the service is when ready). */
    static MockCluster.Backend startSynced(ControlPlane plane, String token) {
        return startSynced(plane, token, MockCluster.settings(List.of()));
    }

    /** Started and synced, with this backoff before a failed job's next attempt. */
    static MockCluster.Backend startSynced(ControlPlane plane, String token, RestartBackoff backoff) {
        return startSynced(plane, token, MockCluster.settings(List.of()), backoff);
    }

    static MockCluster.Backend startSynced(ControlPlane plane, String token, KubernetesProperties settings,
                                           RestartBackoff backoff) {
        return synced(start(plane, token, settings, backoff));
    }

    static MockCluster.Backend startSynced(ControlPlane plane, String token, KubernetesProperties settings) {
        return startSynced(plane, token, MockCluster.connection(plane.masterUrl()), settings);
    }

    static MockCluster.Backend startSynced(ControlPlane plane, String token, KubernetesConnection connection,
                                           KubernetesProperties settings) {
        return synced(start(plane, token, connection, settings));
    }

    private static MockCluster.Backend synced(MockCluster.Backend backend) {
        try {
            await().atMost(SYNC_DEADLINE).until(() -> backend.cache().synced());
            return backend;
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** A new namespace under Pod Security {@code restricted}, with the data claim the shipped settings mount. */
    static String namespace(ControlPlane plane, String prefix) {
        return RestrictedNamespaces.create(plane.admin(), prefix, Settings.defaults(KubernetesProperties.class).dataClaim());
    }

    static MockCluster.Backend start(ControlPlane plane, String token, KubernetesProperties settings) {
        return start(plane, token, MockCluster.connection(plane.masterUrl()), settings);
    }

    static MockCluster.Backend start(ControlPlane plane, String token, KubernetesConnection connection,
                                     KubernetesProperties settings) {
        return start(plane, token, connection, settings, KubernetesRuntime.DEFAULT_BACKOFF);
    }

    /** With this backoff before a failed job's next attempt. */
    static MockCluster.Backend start(ControlPlane plane, String token, KubernetesProperties settings,
                                     RestartBackoff backoff) {
        return start(plane, token, MockCluster.connection(plane.masterUrl()), settings, backoff);
    }

    private static MockCluster.Backend start(ControlPlane plane, String token, KubernetesConnection connection,
                                             KubernetesProperties settings, RestartBackoff backoff) {
        var config = new ConfigBuilder(KubernetesClientFactory.config(connection)).withMasterUrl(plane.masterUrl())
                .withCaCertFile(plane.config(token).getCaCertFile()).withOauthToken(token).build();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        return new MockCluster.Backend(client, KubernetesRuntime.start(client, settings, Plans.PLANNER, backoff,
                Clock.systemUTC()));
    }

    /** A job of {@code trainers} trainers and one pserver, small enough for many on the fake nodes. */
    static JobRequest request(String name, int trainers, String image, Map<String, String> labels) {
        return JobRequests.named(name, "python train.py").pserverEntryPoint("python train.py").image(image)
                .trainers(trainers).pservers(1).labels(labels).build();
    }

    /** The same job, its labels joined by more (to steer both roles at once). */
    static JobRequest request(String name, int trainers, String image, Map<String, String> labels,
                              Map<String, String> more) {
        Map<String, String> all = new HashMap<>(labels);
        all.putAll(more);
        return request(name, trainers, image, all);
    }

    /** A collective job: {@code trainers} trainers and no pservers. */
    static JobRequest collectiveRequest(String name, int trainers, String image, Map<String, String> labels) {
        return JobRequests.named(name, "python train.py").image(image).trainers(trainers).labels(labels)
                .mode(JobMode.COLLECTIVE).build();
    }

    /** A job whose pserver asks for more CPUs than any fake node has: the scheduler cannot place it. */
    static JobRequest unschedulableRequest(String name) {
        return JobRequests.named(name, "python train.py").pserverEntryPoint("python train.py")
                .image("paddlepaddle/paddle:2.6.1").trainers(1).pservers(1).pserverCpu(32).build();
    }

    /** One trainer with {@code gpus} GPUs (on a GPU image) and one pserver. */
    static JobRequest gpuRequest(String name, int gpus, Map<String, String> labels) {
        return JobRequests.named(name, "python train.py").pserverEntryPoint("python train.py")
                .image("paddlepaddle/paddle:2.6.1-gpu-cuda12.0-cudnn8.9-trt8.6").numGpus(gpus).trainers(1).pservers(1)
                .labels(labels).build();
    }
}
