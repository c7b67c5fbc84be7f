package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.history.HistoryStores;
import io.paddlejobs.planning.JobRequests;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.ErrorResponseException;

/**
 * The red team's Slurm/PostgreSQL M3 without Slurm: the history's row is written before the backend is
 * asked, so a submit the backend refuses takes it back; else it stays, listed nowhere and never removed.
 * {@code SlurmHistoryTest} replays it against Slurm itself.
 */
@Tag("redteam")
class SubmitRefusedTest {

    @TempDir
    Path dir;

    @Test
    void aSubmitTheBackendRefusesLeavesNoRowInTheHistoryAndAnswersTheBackendsProblem() {
        try (HikariDataSource database = HistoryStores.embedded(dir)) {
            MemoryJobBackend backend = new MemoryJobBackend();
            JobService jobs = QuotaAdmissionTest.service(backend, HistoryStores.jobHistory(database));
            ErrorResponseException refusal = new ErrorResponseException(HttpStatus.BAD_GATEWAY);
            backend.refuseSubmits(refusal);

            assertThatThrownBy(() -> jobs.submit(JobRequests.named("refused", "python train.py").build(), "team-b",
                    Quota.NONE)).isSameAs(refusal);

            assertThat(JdbcClient.create(database).sql("select count(*) from job_history").query(Integer.class).single())
                    .as("rows left in the history").isZero();
        }
    }
}
