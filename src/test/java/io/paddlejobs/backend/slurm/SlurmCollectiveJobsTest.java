package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.backend.TensorBoardScalarsTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Collective jobs on the real Slurm cluster. Their trainers meet at trainer 0's master port
 * (docs/operations/slurm.md): the others start once it listens (launch.sh), a trainer 0 that never does fails
 * the job in words, and one that ends without listening lets the others run; trainer 0 meeting a real Paddle
 * rank is {@link SlurmLauncherTest}'s and {@link SlurmPaddleJobsTest}'s. And a trainer's TensorBoard
 * scalars are charted here as on the other backends (docs/metrics.md).
 */
class SlurmCollectiveJobsTest extends SlurmServiceTest {

    private static final Duration RENDEZVOUS_TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "5m");
        registry.add("paddlejobs.rendezvous-listen-timeout", () -> RENDEZVOUS_TIMEOUT.toSeconds() + "s");
    }

    @Test
    void aTrainerZeroThatNeverListensFailsTheJobInWordsAndTheOtherNeverStarts() {
        api.submit(collective("lonely", "if [ \\\"$RANK\\\" = 0 ]; then exec sleep 3505; fi; echo started-anyway"));

        JsonNode status = api.awaitPhase("lonely", "Failed", SlurmJobsApiTest.RUN);

        assertThat(status.get("reason").asString()).isEqualTo("RendezvousNotListening");
        assertThat(status.get("message").asString()).contains("trainer-0 did not accept connections on its master port",
                "(PADDLE_MASTER) within 5s (paddlejobs.rendezvous-listen-timeout)", "role=trainer&index=0");
        JsonNode held = status.at("/replicas/1");
        assertThat(held.get("state").asString()).as("%s", status).isEqualTo("Stopped");
        assertThat(held.path("started_at").isMissingNode() || held.path("started_at").isNull()).as("never started: %s",
                status).isTrue();
        assertThat(status.at("/replicas/0/state").asString()).isEqualTo("Stopped");
        assertThat(api.logs("lonely", "role=trainer&index=1")).doesNotContain("started-anyway")
                .contains("trainer-0 did not listen on");
    }

    /** Each trainer copies what tensorboardX wrote into a directory of its own, which the job names. */
    @Test
    void aTrainerZeroThatEndsWithoutListeningLetsTheOtherRunAndEachTrainersTensorBoardScalarsAreCharted()
            throws Exception {
        Path events = TensorBoardScalarsTest.fixtures().resolve("tensorboardx/events.out.tfevents.fixture");
        api.submit(collective("apart", "echo rank-$RANK; mkdir -p runs/$RANK && cp " + events + " runs/$RANK/",
                ", \"env\": {\"PADDLE_JOB_TENSORBOARD_DIR\": \"runs/$RANK\"}"));

        JsonNode status = api.awaitPhase("apart", "Succeeded", SlurmJobsApiTest.RUN);

        assertThat(status.at("/replicas/1/state").asString()).isEqualTo("Succeeded");
        assertThat(api.logs("apart", "role=trainer&index=1")).contains("rank-1");
        // 5 scalars at 4 steps from each of 2 trainers
        await().atMost(SlurmJobsApiTest.RUN).until(() -> api.getJson("/jobs/apart/metrics").at("/cursor").asLong() == 40);
        JsonNode loss = api.getJson("/jobs/apart/metrics").at("/metrics/loss");
        for (String trainer : List.of("trainer-0", "trainer-1")) {
            assertThat(loss.path(trainer).valueStream().map(point -> point.get("value").asDouble()).toList())
                    .as("%s: %s", trainer, loss).containsExactly(2.5, 1.25, 0.5, 0.35);
        }
    }

    private static String collective(String name, String entryPoint) {
        return collective(name, entryPoint, "");
    }

    private static String collective(String name, String entryPoint, String more) {
        return """
                {"name": "%s", "mode": "collective", "trainers": 2, "memory": "256Mi", "entry_point": "%s"%s}"""
                .formatted(name, entryPoint, more);
    }
}
