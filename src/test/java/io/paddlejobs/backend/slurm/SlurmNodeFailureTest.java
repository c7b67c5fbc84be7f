package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** A node daemon killed while a job runs there: Slurm declares the node down, the job fails saying so. */
class SlurmNodeFailureTest extends SlurmServiceTest {

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
    }

    @Test
    void aNodeDaemonKilledMidJobFailsTheJobWithTheNodeFailureInWords() throws Exception {
        api.submit(SlurmJobsApiTest.job("node-dies", "sleep 300"));
        api.awaitPhase("node-dies", "Running", SlurmJobsApiTest.RUN);
        SlurmCluster.Running cluster = SlurmCluster.current();
        // The trainers' component is the second; its node is the one to lose.
        List<String> nodes = cluster.command("squeue", "-h", "-n", "paddlejobs.default.node-dies", "-o", "%N")
                .lines().map(String::strip).toList();
        String node = nodes.get(nodes.size() - 1);

        new ProcessBuilder("kill", "-9", Long.toString(cluster.slurmdPid(node))).inheritIO().start().waitFor();

        try {
            // SlurmdTimeout is 10 s in the test cluster; slurmctld notices within about twice that.
            JsonNode status = api.awaitPhase("node-dies", "Failed", Duration.ofSeconds(90));
            assertThat(status.path("reason").asString()).isEqualTo("NodeFailed");
            assertThat(status.path("message").asString()).contains("failed while it ran").contains(node);
        } finally {
            cluster.restartSlurmd(node);
        }
    }
}
