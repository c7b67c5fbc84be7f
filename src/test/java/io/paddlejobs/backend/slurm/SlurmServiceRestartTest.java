package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The service stopped while a job runs on Slurm: the job runs on, and the next service on the
 * same shared directory picks it back up, to its end.
 */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
class SlurmServiceRestartTest {

    @TempDir
    Path sharedDir;

    @Test
    void aServiceRestartedMidJobPicksItsJobBackUpToItsEnd() {
        String jobId;
        try (ConfigurableApplicationContext first = SlurmCluster.startService(sharedDir)) {
            ServiceClient api = ServiceClient.of(first);
            api.submit(SlurmJobsApiTest.job("outlives", "sleep 6; echo finished"));
            JsonNode running = api.awaitPhase("outlives", "Running", SlurmJobsApiTest.RUN);
            jobId = running.path("created_at").asString();
        }
        assertThat(SlurmJobsApiTest.slurmStates("outlives")).as("stopping the service leaves the job running")
                .contains("RUNNING");

        try (ConfigurableApplicationContext second = SlurmCluster.startService(sharedDir)) {
            ServiceClient api = ServiceClient.of(second);
            assertThat(api.status("outlives").path("created_at").asString()).isEqualTo(jobId);

            JsonNode done = api.awaitPhase("outlives", "Succeeded", Duration.ofSeconds(60));

            assertThat(done.path("trainers").path("succeeded").asInt()).isEqualTo(1);
            assertThat(api.logs("outlives", "role=trainer&index=0")).isEqualTo("finished\n");
        }
    }
}
