package io.paddlejobs.backend.slurm;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The real Paddle examples with {@code paddlejobs.slurm.client=rest}: submitted and watched through slurmrestd alone. */
@Tag("paddle")
class SlurmRestPaddleJobsTest extends SlurmPaddleJobsTest {

    @DynamicPropertySource
    static void restClient(DynamicPropertyRegistry registry) {
        SlurmCluster.serveRest(registry);
    }
}
