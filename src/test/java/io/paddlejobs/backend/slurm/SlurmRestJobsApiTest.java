package io.paddlejobs.backend.slurm;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The same cases with {@code paddlejobs.slurm.client=rest}: slurmrestd with a JWT the service mints. */
@Tag("slurm")
class SlurmRestJobsApiTest extends SlurmJobsApiTest {

    @DynamicPropertySource
    static void restClient(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.slurm.client", () -> "rest");
        registry.add("paddlejobs.slurm.rest-url", () -> SlurmCluster.current().restUrl());
        registry.add("paddlejobs.slurm.jwt-key", () -> SlurmCluster.current().jwtKey());
        // The test cluster's files belong to root; jobs run as the token's user.
        registry.add("paddlejobs.slurm.rest-user", () -> "root");
        // The service has no Slurm configuration of its own here: only slurmrestd is used.
        registry.add("paddlejobs.slurm.slurm-conf", () -> "/nonexistent/slurm.conf");
        registry.add("paddlejobs.slurm.bin-dir", () -> "/nonexistent");
    }
}
