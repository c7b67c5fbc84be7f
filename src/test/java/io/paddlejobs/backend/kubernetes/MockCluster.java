package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.testing.Settings;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

/**
 * fabric8's mock API server in CRUD mode (expectations first, where a test sets some), with
 * the backend wired as in production against it, and an admin client with which a test plays
 * the cluster's controllers: writing Job conditions, pods and their states.
 */
public final class MockCluster implements AutoCloseable {

    public final KubernetesMockServer server;
    public final KubernetesClient admin;
    private final List<Backend> backends = new java.util.ArrayList<>();

    /** One running instance of the service's backend: its client, caches and reconciler. */
    public record Backend(KubernetesClient client, KubernetesRuntime runtime) implements AutoCloseable {

        /** The backend as the service wires it, with its own client for this connection. */
        static Backend start(KubernetesConnection connection, KubernetesProperties settings) {
            KubernetesClient client = KubernetesClientFactory.create(connection);
            return new Backend(client, KubernetesRuntime.start(client, settings, Plans.PLANNER, Clock.systemUTC()));
        }

        public ClusterCache cache() {
            return runtime.cache();
        }

        public KubernetesJobBackend jobs() {
            return runtime.jobs();
        }

        @Override
        public void close() {
            runtime.close();
            client.close();
        }
    }

    /** The mock server logs every request at INFO through java.util.logging; keep a reference, or the level is lost. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    public MockCluster() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        server.init();
        admin = server.createClient();
    }

    /**
     * The shipped connection to this API server, but a longer request timeout: on a busy two-core test
     * machine the first requests of a cold JVM can take seconds, which says nothing about the code under test.
     */
    static KubernetesConnection connection(String masterUrl) {
        return Settings.of(KubernetesConnection.class, "master-url", masterUrl, "request-timeout", "15s");
    }

    /** The shipped settings serving these namespaces (none: every one), with these keys changed ({@link Settings#of}). */
    public static KubernetesProperties settings(List<String> namespaces, Object... keysAndValues) {
        List<Object> keys = new java.util.ArrayList<>(List.of(keysAndValues));
        if (!namespaces.isEmpty()) {
            keys.addAll(List.of("namespaces", String.join(",", namespaces)));
        }
        return Settings.of(KubernetesProperties.class, keys.toArray());
    }

    String url() {
        return server.url("/");
    }

    /** Starts (another) backend instance, as a (re)started replica of the service would be. */
    public Backend startBackend() {
        return startBackend(settings(List.of()));
    }

    public Backend startBackend(KubernetesProperties settings) {
        Backend backend = Backend.start(connection(url()), settings);
        backends.add(backend);
        return backend;
    }

    /** The namespace's data claim, shareable across nodes, as an operator provides it. */
    void provideDataClaim(String namespace) {
        provideDataClaim(namespace, "ReadWriteMany");
    }

    void provideDataClaim(String namespace, String accessMode) {
        admin.persistentVolumeClaims().inNamespace(namespace).resource(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(Settings.defaults(KubernetesProperties.class).dataClaim()).withNamespace(namespace).endMetadata()
                .withNewSpec().withAccessModes(accessMode).endSpec().build()).createOr(existing -> existing.update());
    }

    @Override
    public void close() {
        backends.forEach(Backend::close);
        admin.close();
        server.destroy();
    }
}
