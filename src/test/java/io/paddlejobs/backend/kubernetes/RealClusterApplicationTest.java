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
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.paddlejobs.cluster.FakeNodes;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.KubeflowExamples;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
    private static final String GPU_NODE = "gpu-pool-0";
    private static final String TRAINING_NODE = "training-pool-0";
    /** A line of a manifest's metadata.labels that keeps its trainers running on kwok's nodes (FakeKubelet). */
    private static final String KEEP_TRAINERS_RUNNING = FakeKubelet.trainersKeepRunning().entrySet().stream()
            .map(label -> "    " + label.getKey() + ": " + label.getValue()).findFirst().orElseThrow();
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
        // What the operator lets this namespace's jobs ask for: the pools of the imported PaddleJobs below.
        registry.add("paddlejobs.kubernetes.placement.node-labels[" + ns + "]", () -> "pool=cpu,nvidia.com/gpu.present=true");
        registry.add("paddlejobs.kubernetes.placement.tolerations[" + ns + "]", () -> "dedicated=training:NoSchedule,nvidia.com/gpu:NoSchedule");
        registry.add("paddlejobs.kubernetes.placement.volumes[" + ns + "]", () -> "pvc/ctr-data");
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

    /**
     * Kubeflow's collective example as a team with a GPU pool writes it (a GPU each, the pool's node selector,
     * the toleration of its taint), imported over HTTP: its trainers run on the pool's node, each with the
     * launcher's environment wired to the pods that are there.
     */
    @Test
    void kubeflowsCollectiveExampleImportedForAGpuPoolRunsItsTrainersOnThePoolsTaintedNode() throws Exception {
        pools();
        String manifest = KubeflowExamples.read("collective.yaml")
                // This control plane runs no Kueue to admit from the example's queue (KueueRealClusterTest has
                // one): the label gives way to one that keeps the trainers running, for their pods to be looked at.
                .replace("\n    kueue.x-k8s.io/queue-name: user-queue\n", "\n" + KEEP_TRAINERS_RUNNING + "\n");
        assertThat(manifest).doesNotContain("kueue.x-k8s.io");
        manifest = KubeflowExamples.inserting(manifest, "        spec:", """
                          nodeSelector:
                            nvidia.com/gpu.present: "true"
                          tolerations:
                            - key: nvidia.com/gpu
                              operator: Exists
                              effect: NoSchedule
                """);
        manifest = KubeflowExamples.inserting(manifest, "            - name: paddle", """
                              resources:
                                limits:
                                  nvidia.com/gpu: 1
                """);
        try {
            var imported = importing(manifest);
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);

            List<Pod> trainers = awaitRunning("paddle-simple-cpu", Role.TRAINER, 2);

            assertThat(pods("paddle-simple-cpu", Role.PSERVER)).isEmpty();
            String master = host(trainers.stream().filter(pod -> index(pod) == 0).findFirst().orElseThrow()) + ":37777";
            for (Pod trainer : trainers) {
                assertPlaced(trainer, GPU_NODE, Map.of("nvidia.com/gpu.present", "true"),
                        new TolerationBuilder().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").build());
                Container main = trainer.getSpec().getContainers().get(0);
                assertThat(main.getImage()).isEqualTo("registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu");
                assertThat(script(main)).contains("python -m paddle.distributed.launch run_check");
                assertThat(main.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("1"));
                assertThat(environment(trainer)).containsAllEntriesOf(Map.of(
                        "PADDLE_TRAINER_ID", Integer.toString(index(trainer)),
                        "PADDLE_NNODES", "2", "PADDLE_JOB_ID", "paddle-simple-cpu",
                        "PADDLE_MASTER", master, "POD_IP", host(trainer)));
            }
        } finally {
            send("DELETE", "/jobs/paddle-simple-cpu?namespace=" + ns, null);
        }
    }

    /**
     * A parameter-server PaddleJob as teams write it (per-role env, a secret, a read-only claim, a dedicated and
     * tainted node pool), imported over HTTP: its Master pods are the pservers and its Worker pods the trainers,
     * each role with the env its YAML gave it, the secret a reference the kubelet resolves, the claim mounted,
     * and every pod on the pool's node; the Paddle endpoints name the pods that are there.
     */
    @Test
    void aParameterServerPaddleJobImportedRunsEachRolesPodsWithItsEnvOnTheTeamsTaintedNodes() throws Exception {
        pools();
        RestrictedNamespaces.claim(plane.admin(), ns, "ctr-data");
        String manifest = KubeflowExamples.inserting(KubeflowExamples.read("ps.yaml"), "  labels:", KEEP_TRAINERS_RUNNING + "\n");
        try {
            var imported = importing(manifest);
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);

            List<Pod> pservers = awaitRunning("ctr-ps", Role.PSERVER, 2);
            List<Pod> trainers = awaitRunning("ctr-ps", Role.TRAINER, 3);

            String endpoints = pservers.stream().sorted(Comparator.comparingInt(RealClusterApplicationTest::index))
                    .map(pod -> host(pod) + ":" + environment(pod).get("PADDLE_PORT")).collect(Collectors.joining(","));
            for (Pod pod : union(pservers, trainers)) {
                boolean pserver = pservers.contains(pod);
                assertPlaced(pod, TRAINING_NODE, Map.of("pool", "cpu"),
                        new TolerationBuilder().withKey("dedicated").withOperator("Equal").withValue("training")
                                .withEffect("NoSchedule").build());
                Container main = pod.getSpec().getContainers().get(0);
                assertThat(main.getImage()).isEqualTo("registry.baidubce.com/paddlepaddle/paddle:2.6.1");
                assertThat(script(main)).as("the manifest's command, its $(LR) the shell's").contains("python train.py '--lr='\"${LR}\"");
                assertThat(main.getResources().getRequests()).containsEntry("cpu", new Quantity("2"))
                        .containsEntry("memory", new Quantity(pserver ? "2Gi" : "4Gi"));
                assertThat(environment(pod)).containsAllEntriesOf(Map.of(
                        "LR", "0.01", "ROLE_NOTE", pserver ? "server" : "trainer",
                        "TRAINING_ROLE", pserver ? "PSERVER" : "TRAINER", "PADDLE_TRAINERS_NUM", "3",
                        "PADDLE_PSERVERS_IP_PORT_LIST", endpoints, "POD_IP", host(pod)));
                assertThat(main.getEnv()).filteredOn(v -> v.getName().equals("AWS_SECRET_ACCESS_KEY")).singleElement()
                        .satisfies(v -> {
                            assertThat(v.getValue()).isNull();
                            assertThat(v.getValueFrom().getSecretKeyRef().getName()).isEqualTo("s3");
                            assertThat(v.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("secret");
                        });
                assertThat(main.getVolumeMounts()).filteredOn(m -> m.getMountPath().equals("/mnt/ctr")).singleElement()
                        .satisfies(m -> {
                            assertThat(m.getReadOnly()).isTrue();
                            assertThat(pod.getSpec().getVolumes()).filteredOn(v -> v.getName().equals(m.getName()))
                                    .singleElement().satisfies(v -> assertThat(v.getPersistentVolumeClaim().getClaimName())
                                            .isEqualTo("ctr-data"));
                        });
            }
            assertThat(trainers).extracting(pod -> environment(pod).get("PADDLE_TRAINER_ID"))
                    .containsExactlyInAnyOrder("0", "1", "2");
        } finally {
            send("DELETE", "/jobs/ctr-ps?namespace=" + ns, null);
        }
    }

    /** The pool's taint keeps off a pod that asks for its nodes but does not tolerate it: the scheduler says so. */
    @Test
    void aJobThatDoesNotTolerateThePoolsTaintIsNotPlacedOnItsNode() throws Exception {
        pools();
        try {
            var created = send("POST", "/jobs?namespace=" + ns, """
                    {"name": "untolerated", "mode": "collective", "entry_point": "python train.py",
                     "node_selector": {"pool": "cpu"}}""");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods("untolerated", Role.TRAINER)).singleElement()
                    .satisfies(pod -> {
                        assertThat(pod.getSpec().getNodeName()).isNull();
                        assertThat(pod.getStatus().getConditions()).filteredOn(c -> c.getType().equals("PodScheduled"))
                                .singleElement().satisfies(c -> {
                                    assertThat(c.getReason()).isEqualTo("Unschedulable");
                                    assertThat(c.getMessage()).contains("untolerated taint");
                                });
                    }));
            assertThat(plane.admin().nodes().withLabel("pool", "cpu").list().getItems())
                    .as("the one node the job selects, which its taint keeps the job off")
                    .extracting(node -> node.getMetadata().getName()).containsExactly(TRAINING_NODE);
        } finally {
            send("DELETE", "/jobs/untolerated?namespace=" + ns, null);
        }
    }

    /**
     * Two pools, each a tainted node, as operators mark them: a GPU pool (its nodes labelled as NVIDIA's GPU feature
     * discovery does, tainted as managed clusters taint them) and a team's dedicated CPU nodes.
     */
    private static void pools() {
        FakeNodes.addToPool(plane.admin(), GPU_NODE, 32, "128Gi", 8, Map.of("nvidia.com/gpu.present", "true"),
                new TaintBuilder().withKey("nvidia.com/gpu").withValue("present").withEffect("NoSchedule").build());
        FakeNodes.addToPool(plane.admin(), TRAINING_NODE, 32, "128Gi", 0, Map.of("pool", "cpu"),
                new TaintBuilder().withKey("dedicated").withValue("training").withEffect("NoSchedule").build());
    }

    private HttpResponse<String> importing(String manifest) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jobs/import?namespace=" + ns))
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(manifest)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<Pod> pods(String job, Role role) {
        return plane.admin().pods().inNamespace(ns).withLabels(JobLabels.selector(job, role)).list().getItems();
    }

    /** The role's pods, once there are {@code count} and kwok runs each on the node it was bound to. */
    private static List<Pod> awaitRunning(String job, Role role, int count) {
        await().atMost(DEADLINE).untilAsserted(() -> {
            List<Pod> pods = pods(job, role);
            assertThat(pods).extracting(pod -> pod.getMetadata().getName()).hasSize(count);
            // Where one is not running, its conditions say why (the scheduler's, for one left unplaced).
            assertThat(pods).allSatisfy(pod -> assertThat(pod.getStatus().getPhase())
                    .as("%s: %s", pod.getMetadata().getName(), pod.getStatus().getConditions().stream()
                            .map(c -> c.getType() + "=" + c.getStatus() + (c.getMessage() == null ? "" : " " + c.getMessage()))
                            .toList())
                    .isEqualTo("Running"));
        });
        return pods(job, role);
    }

    /** On {@code node}, which the pod's template asked for by its labels and may run on by tolerating its taint. */
    private static void assertPlaced(Pod pod, String node, Map<String, String> selector, Toleration toleration) {
        assertThat(pod.getSpec().getNodeSelector()).as("node selector").containsExactlyInAnyOrderEntriesOf(selector);
        assertThat(pod.getSpec().getTolerations()).as("tolerations").contains(toleration);
        assertThat(pod.getSpec().getNodeName()).isEqualTo(node);
        Node placed = plane.admin().nodes().withName(node).get();
        assertThat(placed.getMetadata().getLabels()).containsAllEntriesOf(selector);
        assertThat(placed.getSpec().getTaints()).singleElement().satisfies(taint -> assertThat(toleration.getKey())
                .isEqualTo(taint.getKey()));
    }

    /** The main container's environment as the kubelet resolves it for this pod (its secret left out). */
    private static Map<String, String> environment(Pod pod) {
        List<EnvVar> env = pod.getSpec().getContainers().get(0).getEnv().stream()
                .filter(v -> v.getValueFrom() == null || v.getValueFrom().getSecretKeyRef() == null).toList();
        Map<String, String> fields = new HashMap<>();
        pod.getMetadata().getAnnotations().forEach((key, value) -> fields.put("metadata.annotations['" + key + "']", value));
        pod.getMetadata().getLabels().forEach((key, value) -> fields.put("metadata.labels['" + key + "']", value));
        fields.put("metadata.name", pod.getMetadata().getName());
        fields.put("metadata.namespace", pod.getMetadata().getNamespace());
        return KubeletEnv.resolve(env, fields);
    }

    /** The shell script the main container runs, as the kubelet hands it to {@code sh -c}. */
    private static String script(Container main) {
        return KubeletEnv.expand(main.getCommand().get(2), Map.of());
    }

    private static int index(Pod pod) {
        return Integer.parseInt(pod.getMetadata().getAnnotations().get(JobLabels.COMPLETION_INDEX_ANNOTATION));
    }

    /** The pod's host name in its job's service, which the Paddle endpoints name. */
    private static String host(Pod pod) {
        return pod.getSpec().getHostname() + "." + pod.getSpec().getSubdomain();
    }

    private static List<Pod> union(List<Pod> first, List<Pod> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }
}
