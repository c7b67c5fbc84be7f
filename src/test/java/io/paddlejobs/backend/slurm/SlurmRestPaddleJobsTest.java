package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The real Paddle examples with {@code paddlejobs.slurm.client=rest}: submitted and watched through slurmrestd alone. */
@Tag("paddle")
class SlurmRestPaddleJobsTest extends SlurmPaddleJobsTest {

    @DynamicPropertySource
    static void restClient(DynamicPropertyRegistry registry) {
        SlurmCluster.serveRest(registry);
    }

    /**
     * Stacks are taken through {@code srun --overlap} on the service's host: through slurmrestd alone they are a 501
     * that says what to run instead, whatever the job runs (the hang itself is the cli class's case).
     */
    @Override
    @Test
    void aGlooAllReduceThatRankZeroSkipsHangsAndTheStacksShowRankOneInTheCollectiveAndRankZeroElsewhere() {
        api.submit(JSON.writeValueAsString(Map.of("name", "no-stacks", "mode", "collective", "trainers", 1,
                "memory", "256Mi", "entry_point", "sleep 120")));
        api.awaitPhase("no-stacks", "Running", JOB_DEADLINE);

        HttpResponse<String> taken = api.post("/jobs/no-stacks/stacks", "");

        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(501);
        assertThat(taken.body()).contains("srun");
        api.send("POST", "/jobs/no-stacks/cancel", null);
        api.awaitPhase("no-stacks", "Cancelled", JOB_DEADLINE);
    }
}
