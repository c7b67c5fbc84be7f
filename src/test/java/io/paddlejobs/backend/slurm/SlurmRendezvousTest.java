package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A collective job's trainers meet at trainer 0's master port (docs/operations/slurm.md): on Slurm too the
 * others start once it listens (launch.sh), a trainer 0 that never does fails the job in words, and one that
 * ends without listening lets the others run. Trainer 0 meeting a real Paddle rank is
 * {@link SlurmPaddleJobsTest}'s.
 */
class SlurmRendezvousTest extends SlurmServiceTest {

    private static final Duration RENDEZVOUS_TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "5m");
        registry.add("paddlejobs.slurm.rendezvous-listen-timeout", () -> RENDEZVOUS_TIMEOUT.toSeconds() + "s");
    }

    @Test
    void aTrainerZeroThatNeverListensFailsTheJobInWordsAndTheOtherNeverStarts() {
        api.submit(collective("lonely", "if [ \\\"$RANK\\\" = 0 ]; then exec sleep 3505; fi; echo started-anyway"));

        JsonNode status = api.awaitPhase("lonely", "Failed", SlurmJobsApiTest.RUN);

        assertThat(status.get("reason").asString()).isEqualTo("RendezvousNotListening");
        assertThat(status.get("message").asString()).contains("trainer-0 did not accept connections on its master port",
                "(PADDLE_MASTER) within 5s (paddlejobs.slurm.rendezvous-listen-timeout)", "role=trainer&index=0");
        JsonNode held = status.at("/replicas/1");
        assertThat(held.get("state").asString()).as("%s", status).isEqualTo("Stopped");
        assertThat(held.path("started_at").isMissingNode() || held.path("started_at").isNull()).as("never started: %s",
                status).isTrue();
        assertThat(status.at("/replicas/0/state").asString()).isEqualTo("Stopped");
        assertThat(api.logs("lonely", "role=trainer&index=1")).doesNotContain("started-anyway")
                .contains("trainer-0 did not listen on");
    }

    @Test
    void aTrainerZeroThatEndsWithoutListeningLetsTheOtherRunAsBefore() {
        api.submit(collective("apart", "echo rank-$RANK"));

        JsonNode status = api.awaitPhase("apart", "Succeeded", SlurmJobsApiTest.RUN);

        assertThat(status.at("/replicas/1/state").asString()).isEqualTo("Succeeded");
        assertThat(api.logs("apart", "role=trainer&index=1")).contains("rank-1");
    }

    private static String collective(String name, String entryPoint) {
        return """
                {"name": "%s", "mode": "collective", "trainers": 2, "memory": "256Mi", "entry_point": "%s"}"""
                .formatted(name, entryPoint);
    }
}
