package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.fabric8.kubernetes.client.Config;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
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
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;
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
 * The whole service with {@code paddlejobs.backend=kubernetes}, over HTTP, against the real
 * control plane: the client found the standard way (here fabric8's system properties, as
 * {@code KUBECONFIG} would give them), the service's own configuration, its readiness, and a sweep
 * whose trainers print their metrics through the API server. Its context is closed after the class: a
 * service left running would act on other classes' jobs.
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
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Three learning rates for a trainer that runs until the test ends it; the third argument adds to the sweep. */
    private static final String SWEEP = """
            {"name": "%s", "parallel": %d, "objective": {"metric": "loss", "goal": "minimize"}%s,
             "template": {"mode": "collective", "entry_point": "python train.py", "trainers": 1,
                          "labels": {"kwok.paddlejobs.test/trainer": "keep-running"}},
             "parameters": [{"name": "lr", "env": "LR", "values": [0.1, 0.01, 0.001]}]}""";
    /** The last loss a trial's trainer prints, set by its learning rate: 0.01 is the best. */
    private static final Map<String, Double> LOSS_BY_LR = Map.of("0.1", 0.9, "0.01", 0.2, "0.001", 0.5);

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
        // A history of its own, new each run: it keeps the sweeps by namespace and name, and the next run's new
        // control plane names this namespace the same (the history file of the test data root outlives the run).
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:" + ns + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
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
        var trainers = trainers("gpu");
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

    /**
     * A sweep on this backend: each trial a Job on the API server labelled with its sweep and its parameter, the
     * parameter in its trainer's env; at most {@code parallel} at once (the trainers run until the test ends them, so
     * the third waits, no object of it made, while two run); each trainer prints its loss through the API server (its
     * pod's log, which kwok serves as its kubelet), and the sweep names the trial that printed the lowest.
     */
    @Test
    void aSweepRunsItsTrialsAsLabelledJobsAtMostParallelAtOnceAndNamesTheOneWhoseTrainerPrintedTheLowestLoss() throws Exception {
        created(SWEEP.formatted("grid", 2, ""));
        trainerPrintsItsLoss("grid-t1");
        trainerPrintsItsLoss("grid-t2");

        assertThat(sweepJobs("grid")).extracting(job -> job.getMetadata().getName())
                .containsExactlyInAnyOrder(ObjectNames.trainerJob("grid-t1"), ObjectNames.trainerJob("grid-t2"));
        var second = plane.admin().batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob("grid-t2")).get();
        assertThat(second.getMetadata().getLabels()).containsEntry("sweep.paddlejobs.io/sweep", "grid")
                .containsEntry("sweep.paddlejobs.io/lr", "0.01");
        assertThat(env(second.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())).containsEntry("LR", "0.01");

        awaitObjective("grid", 1);
        end("grid-t1");
        trainerPrintsItsLoss("grid-t3");
        awaitObjective("grid", 2);
        awaitObjective("grid", 3);
        end("grid-t2");
        end("grid-t3");

        JsonNode sweep = awaitEnd("grid");
        assertThat(sweep.path("phase").asString()).as(sweep.toString()).isEqualTo("Succeeded");
        assertThat(sweep.path("trials")).extracting(trial -> trial.path("objective").asDouble()).containsExactly(0.9, 0.2, 0.5);
        assertThat(sweep.path("best").path("name").asString()).isEqualTo("grid-t2");
        assertThat(sweepJobs("grid")).hasSize(3);
    }

    /**
     * The median rule on this backend, from the losses the trainers print: three trials at once, the worst stopped;
     * its job ends Cancelled with the rule's reason as the cluster keeps it, not a cancel's.
     */
    @Test
    void theMedianRuleStopsTheTrialWhoseTrainerPrintedTheWorstLossAndItsJobSaysWhy() throws Exception {
        created(SWEEP.formatted("median", 3, ", \"early_stopping\": {\"rule\": \"median\", \"min_trials\": 2}"));
        for (String trial : List.of("median-t1", "median-t2", "median-t3")) {
            trainerPrintsItsLoss(trial);
        }

        await().atMost(DEADLINE).until(() -> status("median-t1").path("phase").asString().equals("Cancelled"));
        end("median-t2");
        end("median-t3");

        JsonNode sweep = awaitEnd("median");
        assertThat(sweep.path("phase").asString()).as(sweep.toString()).isEqualTo("Succeeded");
        assertThat(sweep.path("trials")).extracting(trial -> trial.path("reason").asString())
                .containsExactly("EarlyStopped", "Completed", "Completed");
        assertThat(sweep.path("best").path("name").asString()).isEqualTo("median-t2");
        JsonNode stopped = status("median-t1");
        assertThat(stopped.path("reason").asString()).as(stopped.toString()).isEqualTo("EarlyStopped");
        assertThat(stopped.path("message").asString()).contains("median stopping rule");
        await().atMost(DEADLINE).until(() -> trainers("median-t1").isEmpty());
    }

    /** A cancelled sweep cancels its running trials (their pods go) and starts no more; its delete removes their Jobs. */
    @Test
    void aCancelledSweepCancelsItsRunningTrialsAndItsDeleteRemovesTheirJobs() throws Exception {
        created(SWEEP.formatted("cancelled", 2, ""));
        await().atMost(DEADLINE).until(() -> runningTrainer("cancelled-t1") != null && runningTrainer("cancelled-t2") != null);

        var cancelled = send("POST", "/sweeps/cancelled/cancel?namespace=" + ns, null);

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(JSON.readTree(cancelled.body()).path("phase").asString()).isEqualTo("Cancelled");
        await().atMost(DEADLINE).until(() -> status("cancelled-t1").path("phase").asString().equals("Cancelled")
                && status("cancelled-t2").path("phase").asString().equals("Cancelled") && sweepPods("cancelled").isEmpty());
        assertThat(sweepJobs("cancelled")).as("the third never started").hasSize(2);

        assertThat(send("DELETE", "/sweeps/cancelled?namespace=" + ns, null).statusCode()).isEqualTo(204);
        await().atMost(DEADLINE).until(() -> sweepJobs("cancelled").isEmpty()
                && send("GET", "/jobs/cancelled-t1/status?namespace=" + ns, null).statusCode() == 404);
    }

    private void created(String sweep) throws IOException, InterruptedException {
        var created = send("POST", "/sweeps?namespace=" + ns, sweep);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    /** Gives the trial's running trainer its log: two steps of a loss its learning rate (from its env) sets. */
    private static void trainerPrintsItsLoss(String trial) throws IOException {
        Pod pod = await().atMost(DEADLINE).until(() -> runningTrainer(trial), Objects::nonNull);
        double loss = LOSS_BY_LR.get(env(pod.getSpec().getContainers().get(0).getEnv()).get("LR"));
        plane.printLog(pod, "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": %s}".formatted(loss + 0.1),
                "PADDLEJOBS_METRICS {\"step\": 2, \"loss\": %s}".formatted(loss));
    }

    /** Waits until the sweep has read the trial's last loss (step 2) from its trainer's log. */
    private void awaitObjective(String sweep, int trial) {
        await().atMost(DEADLINE).until(() -> sweep(sweep).path("trials").get(trial - 1).path("last_step").asLong() == 2);
    }

    /** The trainer's program ends, as kwok's kubelet reports it: the trial succeeds. */
    private static void end(String trial) {
        FakeKubelet.exit(plane.admin(), Objects.requireNonNull(runningTrainer(trial), trial), 0);
    }

    private static Pod runningTrainer(String trial) {
        return trainers(trial).stream().filter(pod -> "Running".equals(pod.getStatus().getPhase())).findFirst().orElse(null);
    }

    private static List<Pod> trainers(String trial) {
        return plane.admin().pods().inNamespace(ns).withLabels(JobLabels.selector(trial, Role.TRAINER)).list().getItems();
    }

    private static List<io.fabric8.kubernetes.api.model.batch.v1.Job> sweepJobs(String sweep) {
        return plane.admin().batch().v1().jobs().inNamespace(ns).withLabel("sweep.paddlejobs.io/sweep", sweep).list().getItems();
    }

    private static List<Pod> sweepPods(String sweep) {
        return plane.admin().pods().inNamespace(ns).withLabel("sweep.paddlejobs.io/sweep", sweep).list().getItems();
    }

    private static Map<String, String> env(List<EnvVar> env) {
        return env.stream().filter(e -> e.getValue() != null).collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    private JsonNode sweep(String name) throws IOException, InterruptedException {
        var response = send("GET", "/sweeps/" + name + "?namespace=" + ns, null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private JsonNode awaitEnd(String sweep) {
        return await().atMost(DEADLINE).until(() -> sweep(sweep), s -> s.has("finished_at"));
    }

    private JsonNode status(String job) throws IOException, InterruptedException {
        return JSON.readTree(send("GET", "/jobs/" + job + "/status?namespace=" + ns, null).body());
    }
}
