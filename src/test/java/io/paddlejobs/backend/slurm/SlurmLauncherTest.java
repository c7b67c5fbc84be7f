package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.api.PaddleExamples;
import io.paddlejobs.api.PaddleVenvs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code paddle.distributed.launch} unchanged as the entry point on the real Slurm cluster, on the real Paddle
 * 3.3.1 wheel (docs/environment.md, "The launcher, unchanged"). One client and one Slurm generation: what it
 * checks is the environment the service plans, which neither changes.
 */
@Tag("paddle")
class SlurmLauncherTest extends SlurmServiceTest {

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "10m");
    }

    /**
     * The unchanged launcher, as Kubeflow's PaddleJob examples run it, with its two trainers on one address
     * (every node of the test cluster is 127.0.0.1, as two tasks on one node of a real cluster are): one group
     * of two, where a launcher that counted the distinct hosts of PADDLE_TRAINER_ENDPOINTS saw one node and
     * each trainer trained alone.
     */
    @Test
    void theUnchangedLauncherWithBothTrainersOnOneAddressFormsOneGroupOfTwo() throws Exception {
        String entryPoint = PaddleVenvs.python("3.3.1") + " -m paddle.distributed.launch " + PaddleExamples.hapiRanksProgram();
        api.submit("""
                {"name": "launched", "mode": "collective", "trainers": 2, "entry_point": "%s",
                 "env": {"PYTHONPATH": "%s", "OMP_NUM_THREADS": "1"}}""".formatted(entryPoint, PaddleExamples.pythonClient()));

        JsonNode status = api.awaitPhase("launched", "Succeeded", SlurmPaddleJobsTest.JOB_DEADLINE);

        assertThat(status.path("replicas").valueStream().map(r -> r.path("host").asString()).distinct().toList())
                .as("the trainers share one address: %s", status).hasSize(1);
        PaddleExamples.assertOneGroupOfTwo(List.of(api.logs("launched", "role=trainer&index=0"),
                api.logs("launched", "role=trainer&index=1")));
    }
}
