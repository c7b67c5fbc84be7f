package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.api.PaddleExamples;
import io.paddlejobs.api.PaddleVenvs;
import io.paddlejobs.testing.GlooHang;
import io.paddlejobs.testing.PySpyInstalled;
import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real PaddlePaddle on the real Slurm test cluster, through the service's HTTP API: the examples'
 * own job.json, unchanged from the local backend, each replica a Slurm task wired only by the
 * environment the service injects. Needs the venvs of {@code .ci/prepare-paddle} ({@link PaddleVenvs})
 * as well as the cluster, and py-spy ({@link PySpyInstalled}) for the stacks of a hung one. One job at a time: Paddle processes are heavy, and the machine is small.
 */
@Tag("paddle")
class SlurmPaddleJobsTest extends SlurmServiceTest {

    /** Generous: on two shared cores one Paddle import alone can take several seconds. */
    static final Duration JOB_DEADLINE = Duration.ofMinutes(5);
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "10m");
        registry.add("paddlejobs.slurm.py-spy", PySpyInstalled::setting);
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

    /**
     * The real Paddle hang of docs/failures-and-hangs.md on Slurm ({@link GlooHang}, the local backend's in
     * RealPaddleJobsTest): rank 1 all-reduces over gloo while rank 0 skips it and waits. The stacks, taken by py-spy
     * through srun --overlap on the trainers' nodes, show rank 1 inside Paddle's all_reduce and rank 0 in the function
     * it waits in. Taken again until rank 1 is in the call: it prints its line a moment before it makes it.
     */
    @Test
    void aGlooAllReduceThatRankZeroSkipsHangsAndTheStacksShowRankOneInTheCollectiveAndRankZeroElsewhere() {
        PySpyInstalled.orSkip();
        api.submit(JSON.writeValueAsString(Map.of("name", "gloo-hang", "mode", "collective", "trainers", 2,
                "num_cpus", 2, "memory", "2Gi", "entry_point", GlooHang.entryPoint(PaddleVenvs.python("3.3.1")))));
        await().atMost(JOB_DEADLINE).pollInterval(Duration.ofMillis(500)).until(() -> GlooHang.bothRanksReachedTheirCall(
                api.logs("gloo-hang", "role=trainer&index=0"), api.logs("gloo-hang", "role=trainer&index=1")));

        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            HttpResponse<String> taken = api.post("/jobs/gloo-hang/stacks", "");
            assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
            GlooHang.assertRankOneInTheCollective(ServiceClient.parse(taken.body()));
        });
        api.send("POST", "/jobs/gloo-hang/cancel", null);
        api.awaitPhase("gloo-hang", "Cancelled", JOB_DEADLINE);
    }

    private static List<String> states(JsonNode status, String role) {
        return status.path("replicas").valueStream().filter(r -> r.path("role").asString().equals(role))
                .map(r -> r.path("state").asString()).toList();
    }
}
