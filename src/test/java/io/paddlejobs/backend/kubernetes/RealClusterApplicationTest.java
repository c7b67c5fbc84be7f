package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service with {@code paddlejobs.backend=kubernetes}, over HTTP, against the real
 * control plane: the client found the standard way (here fabric8's system properties, as
 * {@code KUBECONFIG} would give them), the service's own configuration, its readiness. Its
 * context is closed after the class: a service left running would act on other classes' jobs.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes",
        "management.endpoint.health.group.readiness.show-components=always"})
class RealClusterApplicationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final List<String> CLIENT_PROPERTIES = List.of(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY,
            Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY,
            Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY);
    private static final String JOB = """
            {"name": "%s", "entry_point": "python train.py", "num_cpus": 2}""";

    private static ControlPlane plane;
    private static String ns;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        plane = RealCluster.plane();
        ns = RestrictedNamespaces.create(plane.admin(), "http", Settings.defaults(KubernetesProperties.class).dataClaim());
        System.setProperty(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY, plane.adminToken());
        System.setProperty(Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, plane.config(plane.adminToken()).getCaCertFile());
        System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
        System.setProperty(Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false");
        registry.add("paddlejobs.kubernetes.master-url", plane::masterUrl);
        // Its own namespace only: other classes' backends act on theirs in the same control plane.
        registry.add("paddlejobs.kubernetes.namespaces", () -> ns);
    }

    @AfterAll
    static void forgetTheClientProperties() {
        CLIENT_PROPERTIES.forEach(System::clearProperty);
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aJobPostedOverHttpRunsToSucceeded() throws Exception {
        var created = send("POST", "/jobs?namespace=" + ns, JOB.formatted("web"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        await().atMost(DEADLINE).until(() -> send("GET", "/jobs/web/status?namespace=" + ns, null).body()
                .contains("\"phase\":\"Succeeded\""));
        assertThat(send("GET", "/jobs?namespace=" + ns, null).body()).contains("\"web\"");
    }

    /**
     * kwok's nodes serve logs through its kubelet server (ControlPlane): a running trainer's log is read through the
     * API server, as from a kubelet, here empty (no log file is given for this namespace's pods). A log the API server
     * cannot get is a 502 problem in the cluster's words: KubernetesJobBackendTest and ApiErrorsTest.
     */
    @Test
    void aRunningTrainersLogIsReadThroughTheApiServerFromItsNodesKubelet() throws Exception {
        var created = send("POST", "/jobs?namespace=" + ns, """
                {"name": "talk", "entry_point": "python train.py", "labels": {"kwok.paddlejobs.test/trainer": "keep-running"}}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await().atMost(DEADLINE).until(() -> send("GET", "/jobs/talk/status?namespace=" + ns, null).body()
                .contains("\"phase\":\"Running\""));

        var log = send("GET", "/jobs/talk/logs?namespace=" + ns + "&role=trainer&index=0", null);

        assertThat(log.statusCode()).as(log.body()).isEqualTo(200);
        assertThat(log.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    }

    @Test
    void aBeginnersFourGpuJobIsPlacedOnTheGpuNodesWithItsFloorsAndRunsToSucceeded() throws Exception {
        var created = send("POST", "/jobs?namespace=" + ns, """
                {"name": "gpu", "entry_point": "python train.py", "num_gpus": 4}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        await().atMost(DEADLINE).until(() -> send("GET", "/jobs/gpu/status?namespace=" + ns, null).body()
                .contains("\"phase\":\"Succeeded\""));
        var trainers = plane.admin().pods().inNamespace(ns).withLabels(JobLabels.selector("gpu", Role.TRAINER)).list().getItems();
        assertThat(trainers).isNotEmpty().allSatisfy(pod -> {
            var limits = pod.getSpec().getContainers().get(0).getResources().getLimits();
            int gpus = Integer.parseInt(limits.get("nvidia.com/gpu").getAmount());
            assertThat(Quantity.getAmountInBytes(limits.get("memory")))
                    .isGreaterThanOrEqualTo(Quantity.getAmountInBytes(new Quantity(8 * gpus + "Gi")));
            assertThat(pod.getSpec().getNodeName()).as("placed by the scheduler").isNotBlank();
        });
    }

    @Test
    void whileTheApiServerIsAwayASubmitIsA503BeforeAUsersClientGivesUpAndReadinessGoesDownThenUp() throws Exception {
        await().atMost(DEADLINE).until(() -> send("GET", "/actuator/health/readiness", null).statusCode() == 200);

        plane.stopApiServer();
        try {
            // An answer, not a hang: a user's client would have given up (HttpTimeoutException) otherwise.
            var refused = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jobs?namespace=" + ns))
                    .header("Content-Type", "application/json").timeout(ServiceClient.USER_TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.ofString(JOB.formatted("away"))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            await().atMost(DEADLINE).until(() -> send("GET", "/actuator/health/readiness", null).statusCode() == 503);
        } finally {
            plane.startApiServer();
        }

        await().atMost(DEADLINE).until(() -> send("GET", "/actuator/health/readiness", null).statusCode() == 200);
        assertThat(send("POST", "/jobs?namespace=" + ns, JOB.formatted("back")).statusCode()).isEqualTo(201);
    }
}
