package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.api.PaddleExamples;
import io.paddlejobs.api.PaddleVenvs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Real PaddlePaddle on the real Slurm test cluster, through the service's HTTP API: the examples'
 * own job.json, unchanged from the local backend, each replica a Slurm task wired only by the
 * environment the service injects. Needs the venvs of {@code .ci/prepare-paddle} ({@link PaddleVenvs})
 * as well as the cluster. One job at a time: Paddle processes are heavy, and the machine is small.
 */
@Tag("paddle")
class SlurmPaddleJobsTest extends SlurmServiceTest {

    /** Generous: on two shared cores one Paddle import alone can take several seconds. */
    static final Duration JOB_DEADLINE = Duration.ofMinutes(5);

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "10m");
    }

    @Test
    void parameterServerJobOnPaddle26TrainsSucceedsAndHasItsPserversStopped() throws Exception {
        api.submit(PaddleExamples.request("paddle-ps", PaddleVenvs.python("2.6.2")));

        JsonNode status = api.awaitPhase("paddle-ps", "Succeeded", JOB_DEADLINE);

        for (int trainer = 0; trainer < 2; trainer++) {
            PaddleExamples.assertLossFalls(api.logs("paddle-ps", "role=trainer&index=" + trainer));
        }
        assertThat(states(status, "pserver")).as(status.toString()).containsExactly("Stopped", "Stopped");
        assertThat(states(status, "trainer")).as(status.toString()).containsExactly("Succeeded", "Succeeded");
    }

    @Test
    void collectiveJobOnPaddle3TrainsAndEveryRankEndsWithTheSameParameters() throws Exception {
        api.submit(PaddleExamples.request("paddle-collective", PaddleVenvs.python("3.3.1")));

        JsonNode status = api.awaitPhase("paddle-collective", "Succeeded", JOB_DEADLINE);

        assertThat(states(status, "pserver")).isEmpty();
        List<String> checksums = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            String log = api.logs("paddle-collective", "role=trainer&index=" + rank);
            PaddleExamples.assertLossFalls(log);
            String checksum = PaddleExamples.parametersChecksum(log).orElse(null);
            assertThat(checksum).as("rank %d prints its parameters' checksum:%n%s", rank, log).isNotNull();
            checksums.add(checksum);
        }
        assertThat(checksums.get(1)).as("gradients were all-reduced: the ranks' parameters are identical")
                .isEqualTo(checksums.get(0));
        assertThat(api.logs("paddle-collective", "role=trainer&index=1"))
                .as("trainer-1 started once trainer 0's store listened").doesNotContain("Retry to connect");
    }

    private static List<String> states(JsonNode status, String role) {
        return status.path("replicas").valueStream().filter(r -> r.path("role").asString().equals(role))
                .map(r -> r.path("state").asString()).toList();
    }
}
