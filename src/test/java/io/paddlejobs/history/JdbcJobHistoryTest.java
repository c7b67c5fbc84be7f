package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.job.HistoryUnavailableException;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The history on the embedded default, an H2 file migrated from empty as the service does at start;
 * {@link PostgresJobHistoryTest} runs the same on PostgreSQL.
 */
class JdbcJobHistoryTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    Path dir;

    HikariDataSource database;
    JdbcJobHistory history;

    @BeforeEach
    void emptyDatabase() {
        database = emptyDatabase(dir);
        history = HistoryStores.history(database, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void closeDatabase() {
        database.close();
    }

    /** A new, empty database of the kind under test, behind a pool as the service has it. */
    HikariDataSource emptyDatabase(Path dir) {
        return HistoryStores.pooled("jdbc:h2:file:" + dir.resolve("jobs"), "", "");
    }

    @Test
    void migrationsFromAnEmptyDatabaseCreateTheTablesOnceAndAgainApplyNothing() {
        assertThat(HistoryStores.migrate(database)).isEqualTo(1);
        assertThat(HistoryStores.migrate(database)).isZero();
        assertThat(JdbcClient.create(database).sql("select count(*) from job_history").query(Integer.class).single())
                .isZero();
    }

    @Test
    void aRecordedJobReadsBackArchivedWithOneTransitionPerChange() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("team-a", "kept");
        history.submitted(plan);
        history.record(HistoryStores.job(plan, JobPhase.RUNNING, "Started", NOW, null));
        history.record(HistoryStores.job(plan, JobPhase.RUNNING, "Started", NOW, null));
        history.record(HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", NOW, NOW.plusSeconds(5)));

        Job read = history.find(new JobKey("team-a", "kept")).orElseThrow();
        assertThat(read.plan()).isEqualTo(plan);
        assertThat(read.status().phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(read.status().archived()).isTrue();
        assertThat(history.transitions(read.key())).extracting(JdbcJobHistory.Transition::reason)
                .containsExactly("Started", "Completed");
        assertThat(history.list("team-a")).extracting(Job::key).containsExactly(read.key());
        assertThat(history.list("team-b")).isEmpty();
    }

    @Test
    void aKeptLogTailIsServedAndADeleteRemovesEverythingKept() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("default", "logged");
        history.record(HistoryStores.job(plan, JobPhase.FAILED, "TrainerFailed", NOW, NOW));
        history.keepLogTail(new JobKey("default", "logged"), Role.TRAINER, 0, "loss 0.5\nboom\n");

        assertThat(history.logTail(new JobKey("default", "logged"), Role.TRAINER, 0)).hasValue("loss 0.5\nboom\n");
        assertThat(history.logTail(new JobKey("default", "logged"), Role.PSERVER, 0)).isEmpty();
        assertThat(history.delete(new JobKey("default", "logged"))).isTrue();
        assertThat(history.find(new JobKey("default", "logged"))).isEmpty();
        assertThat(history.logTail(new JobKey("default", "logged"), Role.TRAINER, 0)).isEmpty();
        assertThat(history.delete(new JobKey("default", "logged"))).isFalse();
    }

    @Test
    void retentionRemovesFinishedJobsBeyondAgeAndCountAndKeepsUnfinishedOnes() throws Exception {
        HistoryStores.migrate(database);
        record("ancient", JobPhase.SUCCEEDED, NOW.minus(Duration.ofDays(40)));
        record("older", JobPhase.SUCCEEDED, NOW.minus(Duration.ofDays(3)));
        record("newer", JobPhase.FAILED, NOW.minus(Duration.ofDays(1)));
        record("running", JobPhase.RUNNING, null);

        HistoryProperties.Retention limits = new HistoryProperties.Retention(Duration.ofDays(30), 1, Duration.ofDays(1));
        try (HistoryRetention retention = new HistoryRetention(JdbcClient.create(database), limits,
                Clock.fixed(NOW, ZoneOffset.UTC))) {
            retention.enforce();
        }

        assertThat(history.list("default")).extracting(job -> job.plan().name())
                .containsExactlyInAnyOrder("newer", "running");
    }

    /**
     * Two replicas of the service share one store: submits of one name from both at once (a client's
     * retry reaching the other replica) each replace the job's row, and neither is refused by the other's.
     */
    @Test
    void submitsAndRecordsOfOneJobFromTwoReplicasAtOnceAreNeitherRefused() throws Exception {
        HistoryStores.migrate(database);
        JdbcJobHistory other = HistoryStores.history(database, Clock.fixed(NOW, ZoneOffset.UTC));
        JobPlan plan = HistoryStores.plan("default", "shared");
        ExecutorService replicas = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                CyclicBarrier together = new CyclicBarrier(2);
                Job running = HistoryStores.job(plan, JobPhase.RUNNING, "Started" + round, NOW, null);
                List<Future<Object>> writes = replicas.invokeAll(List.of(
                        () -> atOnce(together, () -> history.submitted(plan), () -> history.record(running)),
                        () -> atOnce(together, () -> other.submitted(plan), () -> other.record(running))));
                for (Future<Object> write : writes) {
                    write.get(); // throws what the write threw
                }
            }
        } finally {
            replicas.shutdown();
        }

        assertThat(other.find(new JobKey("default", "shared"))).hasValueSatisfying(
                job -> assertThat(job.status().reason()).isEqualTo("Started19"));
    }

    private static Object atOnce(CyclicBarrier together, Runnable first, Runnable then) throws Exception {
        together.await(10, TimeUnit.SECONDS);
        first.run();
        then.run();
        return null;
    }

    @Test
    void anUnreachableDatabaseIsAServiceUnavailableProblemNotAnError() {
        JdbcJobHistory unreachable = HistoryStores.history(
                new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/history"), Clock.systemUTC());

        assertThatThrownBy(() -> unreachable.submitted(HistoryStores.plan("default", "lost")))
                .isInstanceOfSatisfying(HistoryUnavailableException.class,
                        e -> assertThat(e.getStatusCode().value()).isEqualTo(503));
    }

    private void record(String name, JobPhase phase, Instant finishedAt) {
        JobPlan plan = HistoryStores.plan("default", name);
        Instant created = finishedAt == null ? NOW : finishedAt.minusSeconds(60);
        history.record(HistoryStores.job(plan, phase, phase.name(), created, finishedAt));
    }
}
