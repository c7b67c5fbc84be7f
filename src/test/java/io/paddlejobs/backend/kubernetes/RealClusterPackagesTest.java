package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.step.CodePackageScriptTest;
import io.paddlejobs.backend.kubernetes.manifest.step.CodePackageStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.packages.Archives;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Code packages on the Kubernetes backend, the whole service against the real control plane (in a
 * namespace that enforces Pod Security "restricted"): a job with a package is accepted, its pods
 * fetch the package first into the emptyDir they start in, and the dry run shows it. kwok's nodes
 * run no containers, so the fetch itself is {@link CodePackageScriptTest}'s.
 */
@ExtendWith(RealCluster.class)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes",
        "paddlejobs.kubernetes.packages.service-url=http://paddle-jobs.tools.svc:8080"})
@Tag("cluster")
class RealClusterPackagesTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final List<String> CLIENT_PROPERTIES = List.of(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY,
            Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY,
            Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY);

    private static ControlPlane plane;
    private static String ns;

    @TempDir
    static Path packages;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        plane = RealCluster.plane();
        ns = RestrictedNamespaces.create(plane.admin(), "pkg", Settings.defaults(KubernetesProperties.class).dataClaim());
        System.setProperty(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY, plane.adminToken());
        System.setProperty(Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, plane.config(plane.adminToken()).getCaCertFile());
        System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
        System.setProperty(Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false");
        registry.add("paddlejobs.kubernetes.master-url", plane::masterUrl);
        registry.add("paddlejobs.kubernetes.namespaces", () -> ns);
        registry.add("paddlejobs.packages.dir", () -> packages.toString());
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

    private String upload(byte[] archive) throws Exception {
        var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/packages?namespace=" + ns))
                .header("Content-Type", "application/gzip").POST(HttpRequest.BodyPublishers.ofByteArray(archive)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        Matcher id = Pattern.compile("sha256:[0-9a-f]{64}").matcher(response.body());
        assertThat(id.find()).isTrue();
        return id.group();
    }

    private static String job(String name, String id) {
        return """
                {"name": "%s", "entry_point": "python train.py", "trainers": 2, "pservers": 1, "package": "%s"}"""
                .formatted(name, id);
    }

    @Test
    void aJobWithAPackageIsAcceptedAndEveryPodFetchesItFirstIntoTheDirectoryItStartsIn() throws Exception {
        String id = upload(new Archives().file("train.py", "print('shipped')\n").bytes());

        var created = send("POST", "/jobs?namespace=" + ns, job("shipped", id));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await().atMost(DEADLINE).until(() -> pods("shipped").size() == 3);
        assertThat(pods("shipped")).allSatisfy(pod -> {
            var spec = pod.getSpec();
            Container fetch = spec.getInitContainers().get(0);
            assertThat(fetch.getName()).isEqualTo(CodePackageStep.CONTAINER);
            assertThat(fetch.getEnv()).anySatisfy(env -> assertThat(env.getValue())
                    .startsWith("http://paddle-jobs.tools.svc:8080/packages/" + id + "/content?namespace=" + ns + "&key="));
            assertThat(spec.getVolumes()).anySatisfy(volume -> {
                assertThat(volume.getName()).isEqualTo(CodePackageStep.VOLUME);
                assertThat(volume.getEmptyDir()).isNotNull();
            });
            Container main = spec.getContainers().get(0);
            assertThat(main.getWorkingDir()).isEqualTo(CodePackageStep.WORKING_DIR);
            assertThat(main.getVolumeMounts()).anySatisfy(mount -> {
                assertThat(mount.getName()).isEqualTo(CodePackageStep.VOLUME);
                assertThat(mount.getMountPath()).isEqualTo(CodePackageStep.WORKING_DIR);
            });
        });
        await().atMost(DEADLINE).until(() -> send("GET", "/jobs/shipped/status?namespace=" + ns, null).body()
                .contains("\"phase\":\"Succeeded\""));
    }

    @Test
    void theDryRunShowsTheFetchTheEmptyDirAndTheWorkingDirectory() throws Exception {
        String id = upload(new Archives().file("train.py", "print('dry')\n").bytes());

        var dryRun = send("POST", "/jobs?dry_run=true&namespace=" + ns, job("dry", id));

        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        JsonNode manifests = json.readTree(dryRun.body()).path("manifests");
        assertThat(manifests.isArray()).isTrue();
        int jobs = 0;
        for (JsonNode manifest : manifests) {
            if (!manifest.path("kind").asString().equals("Job")) {
                continue;
            }
            jobs++;
            JsonNode pod = manifest.at("/spec/template/spec");
            assertThat(pod.at("/initContainers/0/name").asString()).isEqualTo(CodePackageStep.CONTAINER);
            assertThat(pod.at("/containers/0/workingDir").asString()).isEqualTo(CodePackageStep.WORKING_DIR);
            assertThat(pod.path("volumes").findValuesAsString("name")).contains(CodePackageStep.VOLUME);
        }
        assertThat(jobs).as("the trainer and the pserver Job").isEqualTo(2);
        assertThat(plane.admin().batch().v1().jobs().inNamespace(ns).withName("dry-trainer").get()).isNull();
    }

    private List<Pod> pods(String job) {
        return plane.admin().pods().inNamespace(ns).withLabels(JobLabels.selector(job)).list().getItems();
    }
}
