package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import io.paddlejobs.job.JobBackend;

/** The whole service with {@code paddlejobs.backend=kubernetes}, over HTTP, against the mock API server. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes",
        "paddlejobs.kubernetes.request-timeout=15s",
        "management.endpoint.health.group.readiness.show-components=always"})
class KubernetesBackendApplicationTest {

    private static final MockCluster CLUSTER = new MockCluster();
    private static final String JOB = """
            {"name": "%s", "entry_point": "python train.py", "num_cpus": 2}""";

    @org.junit.jupiter.api.io.TempDir
    static java.nio.file.Path PACKAGES;

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.kubernetes.master-url", CLUSTER::url);
        registry.add("paddlejobs.packages.dir", () -> PACKAGES.toString());
        CLUSTER.provideDataClaim("default");
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.close();
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theKubernetesBackendIsTheOneInUse() {
        assertThat(backend).isInstanceOf(KubernetesJobBackend.class);
        assertThat(backend.site().host("default", "j", io.paddlejobs.planning.Role.PSERVER, 0)).isEqualTo("j-pserver-0.j");
    }

    @Test
    void aJobPostedOverHttpIsCreatedInTheClusterAndServedFromTheCache() throws Exception {
        var created = send("POST", "/jobs", JOB.formatted("e2e"));
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).contains("/jobs/e2e"));
        assertThat(CLUSTER.admin.batch().v1().jobs().inNamespace("default").withName("e2e-trainer").get()).isNotNull();
        assertThat(CLUSTER.admin.batch().v1().jobs().inNamespace("default").withName("e2e-pserver").get()
                .getSpec().getCompletions()).isEqualTo(2);

        await().atMost(Duration.ofSeconds(15)).until(() -> send("GET", "/jobs/e2e/status", null).statusCode() == 200);
        assertThat(send("GET", "/jobs/e2e/status", null).body()).contains("\"phase\":\"Pending\"");
        assertThat(send("GET", "/jobs", null).body()).contains("\"e2e\"");
    }

    @Test
    void resubmittingTheSameSpecIsIdempotentAndAnotherSpecConflicts() throws Exception {
        assertThat(send("POST", "/jobs", JOB.formatted("again")).statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(15)).until(() -> send("GET", "/jobs/again", null).statusCode() == 200);

        assertThat(send("POST", "/jobs", JOB.formatted("again")).statusCode()).isEqualTo(200);
        var conflict = send("POST", "/jobs", JOB.formatted("again").replace("\"num_cpus\": 2", "\"num_cpus\": 3"));
        assertThat(conflict.statusCode()).isEqualTo(409);
    }

    @Test
    void aDryRunShowsTheObjectsAndCreatesNothing() throws Exception {
        var dryRun = send("POST", "/jobs?dry_run=true", JOB.formatted("dry"));
        assertThat(dryRun.statusCode()).isEqualTo(200);
        assertThat(dryRun.body()).contains("\"kind\":\"Job\"", "\"kind\":\"Service\"", "\"name\":\"dry-pserver\"",
                "\"completionMode\":\"Indexed\"");
        assertThat(CLUSTER.admin.batch().v1().jobs().inNamespace("default").withName("dry-trainer").get()).isNull();
    }

    @Test
    void anOfflineDryRunReadsNothingOfTheClusterShowsTheObjectsAndSaysWhatItCouldNotCheck() throws Exception {
        CLUSTER.admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata().withName("unclaimed").endMetadata().build()).createOr(n -> n.update());

        var online = send("POST", "/jobs?dry_run=true&namespace=unclaimed", JOB.formatted("offline"));
        var offline = send("POST", "/jobs?dry_run=true&offline=true&namespace=unclaimed", JOB.formatted("offline"));
        var notDry = send("POST", "/jobs?offline=true&namespace=unclaimed", JOB.formatted("offline"));

        assertThat(online.statusCode()).as(online.body()).isEqualTo(409); // the claim was read, and is missing
        assertThat(offline.statusCode()).as(offline.body()).isEqualTo(200);
        assertThat(offline.body()).contains("\"kind\":\"Job\"", "\"name\":\"offline-pserver\"", "\"claimName\":\"paddle-data\"",
                "\"unchecked\":[", "PersistentVolumeClaim paddle-data", "ResourceQuota");
        assertThat(notDry.statusCode()).as(notDry.body()).isEqualTo(400);
        assertThat(notDry.body()).contains("\"field\":\"offline\"", "dry_run=true");
        assertThat(CLUSTER.admin.batch().v1().jobs().inNamespace("unclaimed").list().getItems()).isEmpty();
    }

    @Test
    void withoutTheServicesInClusterUrlAJobWithAPackageIsA400SayingWhatToConfigure() throws Exception {
        var upload = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/packages"))
                .header("Content-Type", "application/gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new io.paddlejobs.packages.Archives().file("t.py", "1").bytes()))
                .build(), HttpResponse.BodyHandlers.ofString());
        String id = upload.body().replaceAll(".*\"package\":\"(sha256:[0-9a-f]{64})\".*", "$1");

        var refused = send("POST", "/jobs", "{\"name\": \"shipped\", \"entry_point\": \"python t.py\", \"package\": \"" + id + "\"}");

        assertThat(upload.statusCode()).as(upload.body()).isIn(200, 201);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("\"field\":\"package\"", "paddlejobs.kubernetes.packages.service-url");
        assertThat(CLUSTER.admin.batch().v1().jobs().inNamespace("default").withName("shipped-trainer").get()).isNull();
    }

    @Test
    void aNamespaceWithoutADataClaimIsRefusedAtSubmitSayingWhatToProvide() throws Exception {
        CLUSTER.admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata().withName("bare").endMetadata().build()).createOr(n -> n.update());
        var refused = send("POST", "/jobs?namespace=bare", JOB.formatted("nodata"));
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("problem+json"));
        assertThat(refused.body()).contains("data-claim-unusable", "ReadWriteMany", "paddle-data");
        assertThat(CLUSTER.admin.batch().v1().jobs().inNamespace("bare").list().getItems()).isEmpty();
    }

    @Test
    void anOverloadedApiServerGivesA503WithRetryAfter() throws Exception {
        CLUSTER.server.expect().post().withPath("/apis/batch/v1/namespaces/default/jobs")
                .andReturn(503, new StatusBuilder().withCode(503).withMessage("overloaded").build()).once();
        var response = send("POST", "/jobs", JOB.formatted("busy"));
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
    }

    @Test
    void readinessIncludesTheInformers() throws Exception {
        await().atMost(Duration.ofSeconds(15))
                .until(() -> send("GET", "/actuator/health/readiness", null).statusCode() == 200);
        assertThat(send("GET", "/actuator/health/readiness", null).body()).contains("\"kubernetes\"");
    }
}
