package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link SubmitAndReadBenchmark} against the real control plane (kube-apiserver on etcd, with its
 * controllers and scheduler creating and placing the pods of every job submitted). Run with
 * {@code ./mvnw -B test -Dtest=RealClusterBenchmark -DexcludedGroups=none -Dcluster.required=true}
 * ({@code -Dbenchmark.rounds=} for another size). API calls are not counted here: the API server
 * reports them per resource, not per namespace; the mock server's run counts them.
 */
@Tag("benchmark")
@Tag("cluster")
@ExtendWith(RealCluster.class)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes", "logging.level.root=WARN"})
class RealClusterBenchmark extends SubmitAndReadBenchmark {

    private static final List<String> CLIENT_PROPERTIES = List.of(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY,
            Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY,
            Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY);

    private static ControlPlane plane;
    private static String ns;
    private static String reads;

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        plane = RealCluster.plane();
        ns = RealBackends.namespace(plane, "bench");
        reads = RealBackends.namespace(plane, "bench-reads");
        serviceAsAdmin(plane);
        registry.add("paddlejobs.kubernetes.master-url", plane::masterUrl);
        registry.add("paddlejobs.kubernetes.namespaces", () -> ns + "," + reads);
    }

    /** The service's client as the cluster admin, by the system properties fabric8 reads. */
    static void serviceAsAdmin(ControlPlane plane) {
        System.setProperty(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY, plane.adminToken());
        System.setProperty(Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, plane.config(plane.adminToken()).getCaCertFile());
        System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
        System.setProperty(Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false");
    }

    @AfterAll
    static void forgetTheClientProperties() {
        CLIENT_PROPERTIES.forEach(System::clearProperty);
    }

    @Override
    String namespace() {
        return ns;
    }

    @Override
    String readNamespace() {
        return reads;
    }

    @Override
    KubernetesClient direct() {
        return plane.admin();
    }

    @Override
    long requestsAbout(String namespace) {
        return -1;
    }

    @Override
    String where() {
        return "the real control plane (kube-apiserver, etcd, controllers, scheduler, kwok nodes)";
    }
}
