package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
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

/**
 * Paddle programs as their users already run them (docs/environment.md), on the real Paddle 3.3.1 wheel
 * and the local backend: {@code paddle.distributed.launch} unchanged as the entry point, two launcher jobs
 * at once, a stand-in for Paddle 3's CLIs, and hapi's {@code Model.fit} with its progress bar and the client's
 * callback. Needs the venvs of {@code .ci/prepare-paddle}.
 */
@Tag("paddle")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RealPaddleLauncherTest {

    private static final Duration JOB_DEADLINE = Duration.ofMinutes(5);
    /**
     * Trainer 0 listens once it has imported Paddle, which two jobs side by side on a busy machine can take
     * tens of seconds to do; a trainer 0 that never listens is RendezvousGateTest's (real processes, 2 s).
     */
    private static final Duration RENDEZVOUS_TIMEOUT = Duration.ofMinutes(3);
    /** hapi_ranks.py: 2 epochs of 8 steps, one report each, and an evaluation after each epoch. */
    private static final int STEPS = 16;

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.local.max-running-jobs", () -> 2);
        registry.add("paddlejobs.rendezvous-listen-timeout", () -> RENDEZVOUS_TIMEOUT.toSeconds() + "s");
        // Ports of its own, away from the default range and from RealPaddleJobsTest's.
        registry.add("paddlejobs.local.first-port", () -> 32000);
        registry.add("paddlejobs.local.last-port", () -> 32999);
    }

    @LocalServerPort
    int port;

    ServiceClient client;

    @BeforeEach
    void client() {
        client = new ServiceClient(port);
    }

    @Test
    void theUnchangedLauncherAndKubeflowsRunCheckSucceedSideBySideAndTheirRanksAgree() throws Exception {
        client.submit(collective("launched", python() + " -m paddle.distributed.launch " + program()));
        client.submit(collective("run-check", python() + " -m paddle.distributed.launch run_check"));

        client.awaitPhase("launched", "Succeeded", JOB_DEADLINE);
        client.awaitPhase("run-check", "Succeeded", JOB_DEADLINE);

        assertOneGroupOfTwo("launched");
        for (int trainer = 0; trainer < 2; trainer++) {
            assertThat(log("run-check", trainer)).contains("Distributed training completed");
        }
    }

    @Test
    void aStandInForPaddle3sClisFormsOneTwoRankGroupFromNnodesAndMasterAlone() throws Exception {
        // What paddleformers-cli train does: delete PADDLE_TRAINER_*, then start the launcher from NNODES,
        // MASTER_ADDR and MASTER_PORT (the rest of the environment passes through).
        String cli = "unset PADDLE_TRAINER_ID PADDLE_TRAINERS_NUM PADDLE_TRAINER_ENDPOINTS; exec " + python()
                + " -m paddle.distributed.launch --master \"$MASTER_ADDR:$MASTER_PORT\" --nnodes \"$NNODES\" " + program();
        client.submit(collective("cli", cli));

        client.awaitPhase("cli", "Succeeded", JOB_DEADLINE);

        assertOneGroupOfTwo("cli");
    }

    @Test
    void aHapiFitJobKeepsEveryMetricPointUnderItsProgressBarAndNoRankWaitsForTheStore() throws Exception {
        client.submit(collective("hapi", python() + " " + program()));

        client.awaitPhase("hapi", "Succeeded", JOB_DEADLINE);

        assertOneGroupOfTwo("hapi");
        assertThat(log("hapi", 0)).as("rank 0 draws hapi's progress bar").contains("\r");
        JsonNode metrics = client.getJson("/jobs/hapi/metrics");
        for (String trainer : List.of("trainer-0", "trainer-1")) {
            assertThat(steps(metrics, "loss", trainer)).as("%s: %s", trainer, metrics)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, STEPS).boxed().toList());
            assertThat(steps(metrics, "eval.acc", trainer)).containsExactly(STEPS / 2 - 1, STEPS - 1);
        }
        assertThat(metrics.get("ignored_lines").asInt()).isZero();
        assertThat(client.status("hapi").at("/progress/fraction").asDouble()).isEqualTo(1.0);
        assertThat(log("hapi", 1)).as("trainer 1 started once trainer 0's store listened")
                .doesNotContain("Retry to connect");
    }

    @Test
    void aParameterServerJobThatStartsTheLauncherIsRefusedWithTheFixOnPaddle26() {
        String request = """
                {"name": "ps-launched", "pservers": 1, "trainers": 1,
                 "entry_point": "%s -m paddle.distributed.launch train_ps.py"}""".formatted(PaddleVenvs.python("2.6.2"));

        HttpResponse<String> answer = client.post("/jobs", request);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.body()).contains("entry_point", "Drop the launcher", "fleet.init() reads the environment");
        assertThat(client.get("/jobs/ps-launched").statusCode()).as("nothing was created").isEqualTo(404);
    }

    private void assertOneGroupOfTwo(String job) {
        PaddleExamples.assertOneGroupOfTwo(List.of(log(job, 0), log(job, 1)));
    }

    private static List<Integer> steps(JsonNode metrics, String name, String trainer) {
        return metrics.at("/metrics/" + name.replace("/", "~1") + "/" + trainer).valueStream()
                .map(point -> point.get("step").asInt()).toList();
    }

    private String log(String job, int trainer) {
        return client.logs(job, "role=trainer&index=" + trainer);
    }

    /** A 2-trainer collective job; the client's hapi callback on the path, as a user installs it. */
    private static String collective(String name, String entryPoint) {
        String clients = PaddleExamples.pythonClient();
        return """
                {"name": "%s", "mode": "collective", "trainers": 2, "entry_point": %s,
                 "env": {"PYTHONPATH": "%s", "OMP_NUM_THREADS": "1"}}"""
                .formatted(name, quote(entryPoint), clients);
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String python() {
        return PaddleVenvs.python("3.3.1").toString();
    }

    private static String program() throws URISyntaxException {
        return PaddleExamples.hapiRanksProgram().toString();
    }
}
