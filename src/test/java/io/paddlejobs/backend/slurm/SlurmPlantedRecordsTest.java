package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records planted on the shared directory (the red-team report's H5): the report's own, one that
 * lies in another job's directory, and one that claims another job's Slurm id in a namespace of
 * its own. The service restarted over them starts, uses none, and still has the real jobs.
 */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
@Tag("redteam") // Red team round 2, H5: records planted on Slurm's shared directory.
class SlurmPlantedRecordsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path sharedDir;

    @Test
    void plantedRecordsNeitherStopTheStartNorClaimAnotherJobOrNamespace() throws IOException {
        Path jobs = sharedDir.resolve("jobs");
        try (ConfigurableApplicationContext first = SlurmCluster.startService(sharedDir)) {
            ServiceClient api = ServiceClient.of(first);
            api.submit(SlurmJobsApiTest.job("real", "sleep 120"));
            // As the report's job planted it, from its working directory.
            api.submit(SlurmJobsApiTest.job("planter", "mkdir -p ../../../zz; echo "
                    + "'{\\\"slurm_id\\\":5,\\\"placed\\\":false,\\\"cancel_requested\\\":false}' > ../../../zz/job.json"));
            api.awaitPhase("real", "Running", SlurmJobsApiTest.RUN);
            api.awaitPhase("planter", "Succeeded", SlurmJobsApiTest.RUN);
        }
        assertThat(jobs.resolve("default/zz/job.json")).exists();
        // What a job can write as well: the real job's record under another name, and under a namespace of its own.
        ObjectNode real = (ObjectNode) JSON.readTree(Files.readString(jobs.resolve("default/real/job.json")));
        Files.createDirectories(jobs.resolve("default/copy"));
        Files.writeString(jobs.resolve("default/copy/job.json"), real.toString());
        ((ObjectNode) real.path("plan")).put("namespace", "thieves").put("name", "thief");
        Files.createDirectories(jobs.resolve("thieves/thief"));
        Files.writeString(jobs.resolve("thieves/thief/job.json"), real.toString());

        try (ConfigurableApplicationContext second = SlurmCluster.startService(sharedDir)) {
            ServiceClient api = ServiceClient.of(second);

            assertThat(api.status("real").path("phase").asString()).isEqualTo("Running");
            assertThat(api.getJson("/jobs?namespace=thieves").path("items")).as("no job claims real's Slurm job").isEmpty();
            assertThat(api.send("GET", "/jobs/zz", null).statusCode()).isEqualTo(404);
            assertThat(api.send("GET", "/jobs/copy", null).statusCode()).isEqualTo(404);
            assertThat(refused(jobs.resolve("default/zz"))).isTrue();
            assertThat(refused(jobs.resolve("default/copy"))).isTrue();
            assertThat(refused(jobs.resolve("thieves/thief"))).isTrue();
            api.send("POST", "/jobs/real/cancel", null);
            await().atMost(SlurmJobsApiTest.RUN).until(() -> api.status("real").path("phase").asString().equals("Cancelled"));
        }
    }

    /** Its record was renamed out of the way. */
    private static boolean refused(Path jobDir) throws IOException {
        try (Stream<Path> files = Files.list(jobDir)) {
            return !Files.exists(jobDir.resolve("job.json"))
                    && files.anyMatch(file -> file.getFileName().toString().startsWith("job.json.refused-"));
        }
    }
}
