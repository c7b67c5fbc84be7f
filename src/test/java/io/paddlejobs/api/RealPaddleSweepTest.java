package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A sweep of real Paddle 3 trials on the local backend: {@code examples/paddle-collective} over three
 * learning rates and two seeds (its {@code LEARNING_RATE} and {@code SEED}), each trial an ordinary job
 * reporting its loss as Paddle programs do. Needs the venvs of {@code .ci/prepare-paddle} ({@link PaddleVenvs}).
 */
@Tag("paddle")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RealPaddleSweepTest {

    /** Generous: on two shared cores one Paddle import alone can take several seconds. */
    private static final Duration DEADLINE = Duration.ofMinutes(8);
    private static final int PORT_RANGE = 200;

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        // Ports of their own, as RealPaddleJobsTest has them: another service's gloo store is not ours.
        int first = RealPaddleJobsTest.freePortRangeStart();
        registry.add("paddlejobs.local.first-port", () -> first);
        registry.add("paddlejobs.local.last-port", () -> first + PORT_RANGE - 1);
    }

    @LocalServerPort
    int port;

    @Test
    void aGridOfThreeLearningRatesAndTwoSeedsRunsSixTrialsAtMostTwoAtOnceAndNamesTheBest() throws Exception {
        Path python = PaddleVenvs.python("3.3.1");
        Path train = Path.of(System.getProperty("project.basedir", ".")).resolve("examples/paddle-collective/train.py")
                .toAbsolutePath().normalize();
        ServiceClient client = new ServiceClient(port);
        String sweep = """
                {"name": "paddle-lr", "parallel": 2, "objective": {"metric": "loss", "goal": "minimize"},
                 "template": {"mode": "collective", "entry_point": "%s -u %s", "num_cpus": 2, "memory": "2Gi",
                              "env": {"STEPS": "11"}},
                 "parameters": [{"name": "lr", "env": "LEARNING_RATE", "values": [0.001, 0.01, 0.05]},
                                {"name": "seed", "env": "SEED", "values": [1, 2]}]}""".formatted(python, train);

        HttpResponse<String> created = client.post("/sweeps", sweep);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode ended = await().atMost(DEADLINE).until(() -> client.getJson("/sweeps/paddle-lr"), s -> s.has("finished_at"));

        assertThat(ended.path("phase").asString()).as(ended.toString()).isEqualTo("Succeeded");
        List<JsonNode> trials = new ArrayList<>();
        ended.path("trials").forEach(trials::add);
        assertThat(trials).hasSize(6).allSatisfy(trial -> {
            assertThat(trial.path("phase").asString()).as(trial.toString()).isEqualTo("Succeeded");
            assertThat(trial.path("last_step").asLong()).as(trial.toString()).isEqualTo(10);
        });
        JsonNode lowest = trials.stream().min(Comparator.comparingDouble(t -> t.path("objective").asDouble())).orElseThrow();
        assertThat(ended.path("best").path("name").asString()).isEqualTo(lowest.path("name").asString());
        // plain SGD on a line for 11 steps: the largest stable rate gets lowest
        assertThat(ended.path("best").path("parameters").path("lr").asDouble()).isEqualTo(0.05);
        assertThat(SweepsApiTest.mostAtOnce(client, ended.path("trials"))).as("trials unfinished at once, parallel 2").isBetween(1, 2);
    }
}
