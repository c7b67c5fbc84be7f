package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.Config;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.testing.PostgresServer;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service on the real control plane with its history on PostgreSQL, as {@code deploy/postgres} runs
 * it: a finished job that the cluster's TTL controller removes stays readable, its status, page and
 * listing served from the history and marked archived.
 */
@Tag("cluster")
@Tag("postgres")
@ExtendWith({RealCluster.class, PostgresServer.class})
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes", "paddlejobs.kubernetes.ttl-seconds-after-finished=2"})
class RealClusterHistoryTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final List<String> CLIENT_PROPERTIES = List.of(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY,
            Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY,
            Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ControlPlane plane;
    private static String ns;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void clusterAndDatabase(DynamicPropertyRegistry registry) {
        plane = RealCluster.plane();
        ns = RestrictedNamespaces.create(plane.admin(), "history", Settings.defaults(KubernetesProperties.class).dataClaim());
        System.setProperty(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY, plane.adminToken());
        System.setProperty(Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, plane.config(plane.adminToken()).getCaCertFile());
        System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
        System.setProperty(Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false");
        registry.add("paddlejobs.kubernetes.master-url", plane::masterUrl);
        registry.add("paddlejobs.kubernetes.namespaces", () -> ns);
        registry.add("spring.datasource.url", () -> PostgresServer.current().newDatabase());
        registry.add("spring.datasource.username", () -> PostgresServer.current().user());
        registry.add("spring.datasource.password", () -> PostgresServer.current().password());
    }

    @AfterAll
    static void forgetTheClientProperties() {
        CLIENT_PROPERTIES.forEach(System::clearProperty);
    }

    @Test
    void aJobTheTtlControllerRemovedIsServedFromTheHistoryMarkedArchived() throws Exception {
        var created = send("POST", "/jobs?namespace=" + ns, """
                {"name": "expired", "entry_point": "python train.py"}""", "application/json");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await().atMost(DEADLINE).until(() -> status().path("phase").asString().equals("Succeeded"));
        assertThat(status().path("archived").asBoolean()).isFalse();

        await().atMost(DEADLINE).until(() -> plane.admin().batch().v1().jobs().inNamespace(ns)
                .withName(ObjectNames.trainerJob("expired")).get() == null);

        JsonNode archived = status();
        assertThat(archived.path("phase").asString()).isEqualTo("Succeeded");
        assertThat(archived.path("reason").asString()).isEqualTo("Completed");
        assertThat(archived.path("archived").asBoolean()).isTrue();
        var page = send("GET", "/jobs/expired/status?namespace=" + ns, null, "text/html");
        // The page is a shell its script fills from the JSON status above.
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(JSON.readTree(send("GET", "/jobs?namespace=" + ns, null, "application/json").body())
                .path("items").valueStream().map(item -> item.path("name").asString())).containsExactly("expired");
    }

    private JsonNode status() throws IOException, InterruptedException {
        var response = send("GET", "/jobs/expired/status?namespace=" + ns, null, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> send(String method, String path, String body, String accept)
            throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("Accept", accept)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
