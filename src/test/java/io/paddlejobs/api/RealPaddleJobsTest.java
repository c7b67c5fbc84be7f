package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.GlooHang;
import io.paddlejobs.testing.KubeflowExamples;
import io.paddlejobs.testing.PySpyInstalled;
import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real PaddlePaddle through the real HTTP API and the local backend: the examples' own job.json,
 * each replica a real Paddle process wired only by the environment the service injects. Needs the
 * venvs of {@code .ci/prepare-paddle} (see {@link PaddleVenvs}). One job at a time: Paddle
 * processes are heavy, and the machine is small.
 */
@Tag("paddle")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RealPaddleJobsTest {

    /** Generous: on two shared cores one Paddle import alone can take several seconds. */
    private static final Duration JOB_DEADLINE = Duration.ofMinutes(5);
    private static final Duration PSERVER_LISTEN_TIMEOUT = Duration.ofSeconds(30);
    private static final int PORT_RANGE = 200;
    /**
     * How far apart two runs of the parameter-server example may end (examples/paddle-ps/README.md):
     * asynchronous SGD applies the trainers' gradients in an order that differs from run to run.
     */
    private static final double PS_LOSS_TOLERANCE = 0.01;

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.local.max-running-jobs", () -> 1);
        registry.add("paddlejobs.local.pserver-listen-timeout", () -> PSERVER_LISTEN_TIMEOUT.toSeconds() + "s");
        // Ports of their own, away from the default range that other services' test jobs on this
        // machine may use at the same time: a stranger's pserver on 127.0.0.1:21000 would be
        // taken for ours, by the trainers and by the listen watch alike. No fixed range either (two
        // runs of this test would share it): the range starts at a port the system found free.
        int first = freePortRangeStart();
        firstPort = first;
        registry.add("paddlejobs.local.first-port", () -> first);
        registry.add("paddlejobs.local.last-port", () -> first + PORT_RANGE - 1);
        registry.add("paddlejobs.restarts.backoff", () -> "1s");
        registry.add("paddlejobs.stacks.py-spy", PySpyInstalled::setting);
        // An imported Kubeflow PaddleJob names Paddle's image; here the Paddle 3 venv stands in for it.
        registry.add("paddlejobs.local.images", () -> KUBEFLOW_IMAGE + "*=" + PaddleVenvs.expected("3.3.1").resolve("bin"));
    }

    private static final String KUBEFLOW_IMAGE = "registry.baidubce.com/paddlepaddle/paddle:";
    /** The first port of this test's range: an imported manifest's master port is put there. */
    private static int firstPort;

    /**
     * The first of {@link #PORT_RANGE} ports, from a free one the system handed out: what else listens in
     * the range the service's own allocator skips.
     */
    static int freePortRangeStart() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return Math.min(socket.getLocalPort(), 65535 - PORT_RANGE + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @LocalServerPort
    int port;

    ServiceClient client;
    final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void client() {
        client = new ServiceClient(port);
    }

    @Test
    void parameterServerJobOnPaddle26TrainsSucceedsAndHasItsPserversStopped() throws Exception {
        String request = PaddleExamples.request("paddle-ps", PaddleVenvs.python("2.6.2"));
        long submitted = System.nanoTime();
        client.submit(request);
        long firstLoss = awaitFirstLoss("paddle-ps", submitted);

        JsonNode status = awaitFinished("paddle-ps");

        assertThat(status.get("phase").asString()).as(status.toString()).isEqualTo("Succeeded");
        for (int trainer = 0; trainer < 2; trainer++) {
            PaddleExamples.assertLossFalls(log("paddle-ps", "trainer", trainer));
        }
        assertThat(replicas(status, "pserver")).hasSize(2)
                .allSatisfy(pserver -> assertThat(pserver.get("state").asString()).isEqualTo("Stopped"));
        assertThat(replicas(status, "trainer")).hasSize(2)
                .allSatisfy(trainer -> assertThat(trainer.get("state").asString()).isEqualTo("Succeeded"));
        report("paddle-ps", submitted, firstLoss);
    }

    /**
     * Kubeflow's own collective example (test resource kubeflow/collective.yaml: Worker replicas running
     * {@code python -m paddle.distributed.launch run_check}) imported as it is, but for its master port: the
     * service's ports here are a range of this test's. The image's python is the Paddle 3 venv's
     * (paddlejobs.local.images), and the launcher finds its peer through the environment the service gives it,
     * as it would under Kubeflow's operator.
     */
    @Test
    void kubeflowsCollectiveExampleImportedRunsTheLauncherWithTheVenvStandingInForItsImage() throws Exception {
        PaddleVenvs.python("3.3.1");
        String manifest = KubeflowExamples.read("collective.yaml")
                .replace("- containerPort: 37777", "- containerPort: " + firstPort);
        HttpResponse<String> imported = client.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(client.baseUrl() + "/jobs/import"))
                .header("Content-Type", "application/yaml")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(manifest)));
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);

        JsonNode status = awaitFinished("paddle-simple-cpu");

        assertThat(status.get("phase").asString()).as(status.toString()).isEqualTo("Succeeded");
        for (int trainer = 0; trainer < 2; trainer++) {
            assertThat(log("paddle-simple-cpu", "trainer", trainer)).contains("Distributed training completed");
        }
    }

    @Test
    void collectiveJobOnPaddle3TrainsAndEveryRankEndsWithTheSameParameters() throws Exception {
        String request = PaddleExamples.request("paddle-collective", PaddleVenvs.python("3.3.1"));
        long submitted = System.nanoTime();
        client.submit(request);
        long firstLoss = awaitFirstLoss("paddle-collective", submitted);

        JsonNode status = awaitFinished("paddle-collective");

        assertThat(status.get("phase").asString()).as(status.toString()).isEqualTo("Succeeded");
        assertThat(replicas(status, "pserver")).isEmpty();
        List<String> checksums = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            String log = log("paddle-collective", "trainer", rank);
            PaddleExamples.assertLossFalls(log);
            String checksum = PaddleExamples.parametersChecksum(log).orElse(null);
            assertThat(checksum).as("rank %d prints its parameters' checksum:%n%s", rank, log).isNotNull();
            checksums.add(checksum);
        }
        assertThat(checksums.get(1)).as("gradients were all-reduced: the ranks' parameters are identical")
                .isEqualTo(checksums.get(0));
        report("paddle-collective", submitted, firstLoss);
    }

    /**
     * The hang of docs/failures-and-hangs.md with real Paddle ({@link GlooHang}): rank 1 all-reduces over gloo while
     * rank 0 skips the all_reduce and waits elsewhere. The stacks show rank 1 inside Paddle's all_reduce, called from
     * the program's function, and rank 0 in the function it waits in instead. Taken again until rank 1 is in the call:
     * it prints its line a moment before it makes it.
     */
    @Test
    void aGlooAllReduceThatRankZeroSkipsHangsAndTheStacksShowRankOneInTheCollectiveAndRankZeroElsewhere()
            throws Exception {
        PySpyInstalled.orSkip();
        client.submit(json.writeValueAsString(java.util.Map.of("name", "gloo-hang", "mode", "collective", "trainers", 2,
                "num_cpus", 2, "memory", "2Gi", "entry_point", GlooHang.entryPoint(PaddleVenvs.python("3.3.1")))));
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(500)).until(() -> GlooHang
                .bothRanksReachedTheirCall(log("gloo-hang", "trainer", 0), log("gloo-hang", "trainer", 1)));

        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            HttpResponse<String> taken = client.post("/jobs/gloo-hang/stacks", "");
            assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
            GlooHang.assertRankOneInTheCollective(json.readTree(taken.body()));
        });
        client.post("/jobs/gloo-hang/cancel", "");
        assertThat(awaitFinished("gloo-hang").get("phase").asString()).isEqualTo("Cancelled");
    }

    @Test
    void trainersThatCannotReachTheirPserversFailTheJobWithAReasonInsteadOfHanging() throws Exception {
        // Real Paddle trainers; pservers that never listen. Paddle's trainers would wait for them forever.
        JsonNode request = json.readTree(PaddleExamples.request("paddle-ps", PaddleVenvs.python("2.6.2")));
        String broken = json.writeValueAsString(((tools.jackson.databind.node.ObjectNode) request)
                .put("name", "unreachable-pservers").put("pserver_entry_point", "exec sleep 3301"));
        client.submit(broken);

        // Ended by the service's listen watch (its reason below), not by the test's deadline.
        JsonNode status = awaitFinished("unreachable-pservers");

        assertThat(status.get("phase").asString()).isEqualTo("Failed");
        assertThat(status.get("reason").asString()).as("%s%n%s", status, log("unreachable-pservers", "trainer", 0))
                .isEqualTo("PserverNotListening");
        assertThat(status.get("message").asString()).contains("pserver-", "did not accept connections");
        assertThat(log("unreachable-pservers", "trainer", 0)).as("the trainer was waiting for its pservers")
                .contains("server not ready");
        assertThat(status.get("replicas").valueStream().map(r -> r.get("state").asString()))
                .doesNotContain("Running", "Pending");
    }

    @Test
    void collectiveJobWithATrainerKilledMidTrainingResumesFromItsCheckpointAndEndsAsAnUninterruptedRunEnds()
            throws Exception {
        client.submit(collective("collective-whole"));
        assertThat(awaitFinished("collective-whole").get("phase").asString()).isEqualTo("Succeeded");
        String uninterrupted = PaddleExamples.parametersChecksum(log("collective-whole", "trainer", 0)).orElseThrow();

        client.submit(collective("collective-resumed"));
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(250))
                .until(() -> log("collective-resumed", "trainer", 1).contains("step 60 "));
        long killed = System.nanoTime();
        new ProcessBuilder("kill", "-9", Long.toString(pidOf("collective-resumed", "trainer-1"))).start().waitFor();
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonNode status = client.getJson("/jobs/collective-resumed/status");
            return status.get("restarts").asInt() == 1 && status.get("trainers").get("running").asInt() == 2;
        });
        long nextAttemptRunning = System.nanoTime() - killed;

        JsonNode status = awaitFinished("collective-resumed");

        String log = log("collective-resumed", "trainer", 0);
        assertThat(status.get("phase").asString()).as("%s%n%s", status, log).isEqualTo("Succeeded");
        assertThat(status.get("restarts").asInt()).isEqualTo(1);
        assertThat(status.get("attempts").get(0).get("message").asString()).contains("trainer-1 killed by signal 9");
        java.util.regex.Matcher resumed = java.util.regex.Pattern.compile("from step (\\d+) \\(restart 1\\)").matcher(log);
        assertThat(resumed.find()).as("the second attempt says where it resumed:%n%s", log).isTrue();
        assertThat(Integer.parseInt(resumed.group(1))).as("resumed from a checkpoint, not from step 0").isGreaterThan(0);
        assertThat(PaddleExamples.parametersChecksum(log)).as("the same parameters as the uninterrupted run")
                .contains(uninterrupted);
        System.out.printf("paddle-e2e restart: trainer-1 killed -> next attempt's trainers running in %d ms"
                + " (backoff 1 s); resumed from step %s%n", nextAttemptRunning / 1_000_000, resumed.group(1));
    }

    @Test
    void parameterServerJobWithATrainerKilledMidTrainingResumesFromItsCheckpointAndEndsWithAnUninterruptedRunsLoss()
            throws Exception {
        client.submit(parameterServer("ps-whole"));
        JsonNode whole = awaitFinished("ps-whole");
        assertThat(whole.get("phase").asString()).as(whole.toString()).isEqualTo("Succeeded");
        List<Double> uninterrupted = PaddleExamples.losses(log("ps-whole", "trainer", 0));

        client.submit(parameterServer("ps-resumed"));
        // Killed once trainer 0 has saved its third pass: the pservers' tables of a run well under way.
        Path checkpoints = dataRoot.resolve("checkpoints/default/ps-resumed/paddle-ps");
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(100))
                .until(() -> PaddleExamples.latestPsCheckpoint(checkpoints) >= 3);
        long killed = System.nanoTime();
        new ProcessBuilder("kill", "-9", Long.toString(pidOf("ps-resumed", "trainer-0"))).start().waitFor();
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonNode status = client.getJson("/jobs/ps-resumed/status");
            return status.get("restarts").asInt() == 1 && status.get("trainers").get("running").asInt() == 2;
        });
        long nextAttemptRunning = System.nanoTime() - killed;

        JsonNode status = awaitFinished("ps-resumed");

        String log = log("ps-resumed", "trainer", 0);
        assertThat(status.get("phase").asString()).as("%s%n%s", status, log).isEqualTo("Succeeded");
        assertThat(status.get("restarts").asInt()).isEqualTo(1);
        assertThat(status.get("attempts").get(0).get("message").asString()).contains("trainer-0 killed by signal 9");
        java.util.regex.Matcher resumed = java.util.regex.Pattern.compile("from pass (\\d+) \\(restart 1\\)").matcher(log);
        assertThat(resumed.find()).as("the second attempt says where it resumed:%n%s", log).isTrue();
        int firstPass = Integer.parseInt(resumed.group(1));
        assertThat(firstPass).as("resumed after a checkpoint, not from the start").isGreaterThan(1);
        List<Double> afterRestart = PaddleExamples.losses(log.substring(resumed.end()));
        assertThat(afterRestart).as("losses after the restart:%n%s", log).isNotEmpty();
        // A fresh start's first loss is the uninterrupted run's first; a resumed one is far below it, by how much
        // varies with what the other trainer pushed meanwhile (asynchronous SGD: seen from 1/30 to 1/5 of it).
        assertThat(afterRestart.get(0)).as("the pservers started from the checkpoint's parameters, not fresh ones")
                .isLessThan(uninterrupted.get(0) / 2);
        assertThat(afterRestart.get(afterRestart.size() - 1)).as("final loss beside the uninterrupted run's %s", uninterrupted)
                .isCloseTo(uninterrupted.get(uninterrupted.size() - 1), org.assertj.core.data.Offset.offset(PS_LOSS_TOLERANCE));
        System.out.printf("paddle-e2e ps restart: trainer-0 killed -> next attempt's trainers running in %d ms"
                + " (backoff 1 s); resumed from pass %d%n", nextAttemptRunning / 1_000_000, firstPass);
    }

    /** The parameter-server example for 40 passes, restarted on a kill from outside; each name has its own checkpoints. */
    private String parameterServer(String name) throws Exception {
        var request = (tools.jackson.databind.node.ObjectNode) json.readTree(
                PaddleExamples.request("paddle-ps", PaddleVenvs.python("2.6.2")));
        request.put("name", name).put("max_restarts", 1).put("restart_on", "infrastructure");
        request.putObject("env").put("PASSES", "40");
        return json.writeValueAsString(request);
    }

    /** The collective example for 200 steps, restarted on a kill from outside; each name has its own checkpoints. */
    private String collective(String name) throws Exception {
        var request = (tools.jackson.databind.node.ObjectNode) json.readTree(
                PaddleExamples.request("paddle-collective", PaddleVenvs.python("3.3.1")));
        request.put("name", name).put("max_restarts", 2).put("restart_on", "infrastructure");
        request.putObject("env").put("STEPS", "200").put("CHECKPOINT_EVERY", "10");
        return json.writeValueAsString(request);
    }

    /** A replica's pid, from its job's record: the pid a kill -9 from outside would hit. */
    private long pidOf(String job, String replica) throws Exception {
        JsonNode record = json.readTree(dataRoot.resolve("jobs/default").resolve(job).resolve("job.json").toFile());
        return record.get("processes").get(replica).get("pid").asLong();
    }

    private long awaitFirstLoss(String job, long submitted) {
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(250))
                .until(() -> phaseOf(job).equals("Failed") || PaddleExamples.reportsALoss(log(job, "trainer", 0)));
        return System.nanoTime() - submitted;
    }

    private JsonNode awaitFinished(String job) {
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(500))
                .until(() -> List.of("Succeeded", "Failed", "Cancelled").contains(phaseOf(job)));
        return client.getJson("/jobs/" + job + "/status");
    }

    private String phaseOf(String job) {
        return client.getJson("/jobs/" + job + "/status").get("phase").asString();
    }

    private String log(String job, String role, int index) {
        return client.get("/jobs/" + job + "/logs?role=" + role + "&index=" + index).body();
    }

    private static List<JsonNode> replicas(JsonNode status, String role) {
        return status.get("replicas").valueStream().filter(r -> r.get("role").asString().equals(role)).toList();
    }

    private static void report(String job, long submitted, long firstLoss) {
        System.out.printf("paddle-e2e %s: first loss line of trainer 0 %d ms after POST, finished %d ms after POST%n",
                job, firstLoss / 1_000_000, (System.nanoTime() - submitted) / 1_000_000);
    }
}
