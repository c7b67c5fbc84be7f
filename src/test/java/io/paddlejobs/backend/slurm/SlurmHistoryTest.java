package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * A Slurm job whose records are gone (Slurm forgets a finished job after {@code MinJobAge}, and the
 * shared directory's records go with a delete from the backend, or an operator's clean-up) stays
 * readable from the history, across a restart of the service, as on the other backends.
 */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
class SlurmHistoryTest {

    @TempDir
    Path sharedDir;

    @TempDir
    Path historyDir;

    @Test
    void aFinishedJobWhoseRecordsAreGoneIsServedFromTheHistoryAcrossARestart() {
        JobKey key = new JobKey("default", "remembered");
        String history = "--paddlejobs.history.dir=" + historyDir;
        try (ConfigurableApplicationContext first = SlurmCluster.startService(sharedDir, history)) {
            ServiceClient api = ServiceClient.of(first);
            api.submit(SlurmJobsApiTest.job("remembered", "echo first; echo second"));
            api.awaitPhase("remembered", "Succeeded", SlurmJobsApiTest.RUN);
            // The recorder writes on its own thread: the log is kept once it wrote the finished job.
            await().atMost(SlurmJobsApiTest.RUN)
                    .until(() -> first.getBean(JobHistory.class).keptLog(key, Role.TRAINER, 0).isPresent());
            assertThat(api.status("remembered").path("archived").asBoolean()).isFalse();

            assertThat(first.getBean(JobBackend.class).delete(key)).as("the backend's records removed").isTrue();

            assertArchived(api);
        }
        assertThat(SlurmJobsApiTest.slurmStates("remembered")).as("nothing of it runs").doesNotContain("RUNNING");

        try (ConfigurableApplicationContext second = SlurmCluster.startService(sharedDir, history)) {
            ServiceClient api = ServiceClient.of(second);
            assertArchived(api);
            List<String> listed = api.getJson("/jobs?limit=500").path("items").valueStream()
                    .map(item -> item.path("name").asString()).toList();
            assertThat(listed).containsOnlyOnce("remembered");

            assertThat(api.delete("/jobs/remembered").statusCode()).isEqualTo(204);
            assertThat(api.get("/jobs/remembered/status").statusCode()).isEqualTo(404);
            assertThat(second.getBean(JobHistory.class).find(key)).isEmpty();
        }
    }

    /**
     * The red team's Slurm/PostgreSQL M3: the history's row is written before Slurm is asked, so a submit
     * Slurm refuses (here a partition the operator allows and the cluster does not have) must take it
     * back, or it stays for good, listed nowhere; the answer is Slurm's refusal as a problem document.
     */
    @Test
    @Tag("redteam")
    void aSubmitSlurmRefusesAnswersItsProblemAndLeavesNoRowInTheHistory() {
        try (ConfigurableApplicationContext service = SlurmCluster.startService(sharedDir,
                "--paddlejobs.history.dir=" + historyDir, "--paddlejobs.slurm.partitions.default=nowhere")) {
            ServiceClient api = ServiceClient.of(service);
            HttpResponse<String> refused = api.post("/jobs", """
                    {"name": "refused", "entry_point": "true", "num_cpus": 1, "pservers": 1, "memory": "256Mi",
                     "partition": "nowhere"}""");

            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(502);
            assertThat(refused.headers().firstValue("content-type")).hasValue("application/problem+json");
            assertThat(ServiceClient.parse(refused.body()).path("type").asString())
                    .isEqualTo("urn:paddlejobs:problem:slurm-refused");
            assertThat(JdbcClient.create(service.getBean(DataSource.class)).sql("select count(*) from job_history")
                    .query(Integer.class).single()).as("rows left in the history").isZero();
        }
    }

    private static void assertArchived(ServiceClient api) {
        JsonNode status = api.status("remembered");
        assertThat(status.path("phase").asString()).isEqualTo("Succeeded");
        assertThat(status.path("reason").asString()).isEqualTo("Completed");
        assertThat(status.path("archived").asBoolean()).isTrue();
        assertThat(api.getJson("/jobs/remembered").path("plan").path("name").asString()).isEqualTo("remembered");
        assertThat(api.logs("remembered", "role=trainer&index=0")).isEqualTo("first\nsecond\n");
    }
}
