package io.paddlejobs.backend.slurm;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The same cases with {@code paddlejobs.slurm.client=rest}: slurmrestd with a JWT the service mints. */
@Tag("slurm")
class SlurmRestJobsApiTest extends SlurmJobsApiTest {

    @DynamicPropertySource
    static void restClient(DynamicPropertyRegistry registry) {
        SlurmCluster.serveRest(registry);
    }

    @Override
    String client() {
        return "rest";
    }
}
