package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.job.HistoryUnavailableException;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.job.Progress;
import io.paddlejobs.metrics.MetricPoint;
import io.paddlejobs.metrics.MetricsSnapshot;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.dao.DataIntegrityViolationException;
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
        assertThat(HistoryStores.migrate(database)).isEqualTo(5);
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
        assertThat(listed("team-a")).extracting(Job::key).containsExactly(read.key());
        assertThat(listed("team-b")).isEmpty();
    }

    @Test
    void aKeptLogTailIsServedAndADeleteRemovesEverythingKept() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("default", "logged");
        history.record(HistoryStores.job(plan, JobPhase.FAILED, "TrainerFailed", NOW, NOW));
        history.keepLog(new JobKey("default", "logged"), Role.TRAINER, 0, "loss 0.5\nboom\n");
        history.keepEarlierLog(new JobKey("default", "logged"), Role.TRAINER, 0, 0, "Traceback\n", NOW);

        assertThat(history.keptLog(new JobKey("default", "logged"), Role.TRAINER, 0)).hasValue("loss 0.5\nboom\n");
        assertThat(history.keptLog(new JobKey("default", "logged"), Role.PSERVER, 0)).isEmpty();
        assertThat(history.keptEarlierLog(new JobKey("default", "logged"), Role.TRAINER, 0, 0)).hasValue("Traceback\n");
        assertThat(history.keptEarlierLog(new JobKey("default", "logged"), Role.TRAINER, 0, 1)).isEmpty();
        assertThat(history.delete(new JobKey("default", "logged"))).isTrue();
        assertThat(history.find(new JobKey("default", "logged"))).isEmpty();
        assertThat(history.keptLog(new JobKey("default", "logged"), Role.TRAINER, 0)).isEmpty();
        assertThat(history.keptEarlierLog(new JobKey("default", "logged"), Role.TRAINER, 0, 0)).isEmpty();
        assertThat(history.delete(new JobKey("default", "logged"))).isFalse();
    }

    @Test
    void retentionRemovesFinishedJobsBeyondAgeAndCountAndKeepsUnfinishedOnes() throws Exception {
        HistoryStores.migrate(database);
        record("ancient", JobPhase.SUCCEEDED, NOW.minus(Duration.ofDays(40)));
        record("older", JobPhase.SUCCEEDED, NOW.minus(Duration.ofDays(3)));
        record("newer", JobPhase.FAILED, NOW.minus(Duration.ofDays(1)));
        record("running", JobPhase.RUNNING, null);

        HistoryProperties.Retention limits = new HistoryProperties.Retention(Duration.ofDays(30), 1);
        try (HistoryRetention retention = new HistoryRetention(JdbcClient.create(database), limits,
                Clock.fixed(NOW, ZoneOffset.UTC))) {
            retention.enforce();
        }

        assertThat(listed("default")).extracting(job -> job.plan().name())
                .containsExactlyInAnyOrder("newer", "running");
    }

    /** Round 3's M5: the count is each namespace's, so one tenant's trivial jobs evict nobody else's history. */
    @Test
    void retentionCountsEachNamespacesFinishedJobsApart() throws Exception {
        HistoryStores.migrate(database);
        recordIn("team-b", "b-old", NOW.minus(Duration.ofDays(5)));
        for (int i = 0; i < 5; i++) {
            recordIn("team-a", "a-" + i, NOW.minus(Duration.ofMinutes(i)));
        }

        HistoryProperties.Retention limits = new HistoryProperties.Retention(Duration.ofDays(30), 2);
        try (HistoryRetention retention = new HistoryRetention(JdbcClient.create(database), limits,
                Clock.fixed(NOW, ZoneOffset.UTC))) {
            retention.enforce(); // its own first run may be removing them too: the outcome is the same
        }

        assertThat(listed("team-a")).extracting(job -> job.plan().name()).containsExactly("a-0", "a-1");
        assertThat(listed("team-b")).extracting(job -> job.plan().name()).containsExactly("b-old");
    }

    /**
     * The red team's Slurm/PostgreSQL M3 and what a delete leaves: a submit's row whose job never came
     * (the service stopped before it could remove it) goes once it has waited ten minutes for a status;
     * logs, metrics and transitions without their job's row go; tombstones go after an hour.
     */
    @Test
    void retentionSweepsSubmitsNeverCreatedRowsWithoutTheirJobAndOldTombstones() throws Exception {
        HistoryStores.migrate(database);
        JdbcClient db = JdbcClient.create(database);
        HistoryStores.history(database, Clock.fixed(NOW.minus(Duration.ofMinutes(11)), ZoneOffset.UTC))
                .submitted(HistoryStores.plan("default", "never-created"));
        history.submitted(HistoryStores.plan("default", "being-created"));
        db.sql("insert into job_logs (namespace, name, replica, content) values ('default', 'gone', 'trainer-0', 'x')")
                .update();
        db.sql("insert into job_metrics (namespace, name, snapshot_json) values ('default', 'gone', '{}')").update();
        HistoryStores.history(database, Clock.fixed(NOW.minus(Duration.ofHours(2)), ZoneOffset.UTC))
                .delete(new JobKey("default", "deleted-long-ago"));
        history.delete(new JobKey("default", "deleted-now"));

        HistoryProperties.Retention limits = new HistoryProperties.Retention(Duration.ofDays(30), 10);
        try (HistoryRetention retention = new HistoryRetention(db, limits, Clock.fixed(NOW, ZoneOffset.UTC))) {
            retention.enforce();
        }

        assertThat(db.sql("select name from job_history").query(String.class).list()).containsExactly("being-created");
        assertThat(db.sql("select count(*) from job_logs").query(Integer.class).single()).isZero();
        assertThat(db.sql("select count(*) from job_metrics").query(Integer.class).single()).isZero();
        assertThat(db.sql("select name from job_tombstones").query(String.class).list()).containsExactly("deleted-now");
    }

    /**
     * The red team's PostgreSQL M2: PostgreSQL's text holds no U+0000, which any replica may print; the
     * log, the reason and the message are kept with it replaced, on both stores alike.
     */
    @Test
    void aLogReasonAndMessageWithNulBytesAreKeptWithTheNulReplaced() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("default", "nul");
        JobKey key = new JobKey("default", "nul");
        history.submitted(plan);
        history.record(HistoryStores.job(plan, JobPhase.FAILED, "Trainer\0Failed", NOW, NOW));
        history.keepLog(key, Role.TRAINER, 0, "before\0after\n");

        assertThat(history.keptLog(key, Role.TRAINER, 0)).hasValue("before\uFFFDafter\n");
        assertThat(history.transitions(key)).extracting(JdbcJobHistory.Transition::reason, JdbcJobHistory.Transition::message)
                .containsExactly(tuple("Trainer\uFFFDFailed", "Trainer\uFFFDFailed in words"));
        assertThat(history.find(key).orElseThrow().status().reason()).isEqualTo("Trainer\0Failed");
    }

    /** A value the store will never take is its refusal, not an unavailable store: not worth retrying. */
    @Test
    void aWriteTheStoreRefusesIsARefusalNotAnUnavailableStore() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("default", "x".repeat(70));

        assertThatThrownBy(() -> history.record(HistoryStores.job(plan, JobPhase.RUNNING, "Started", NOW, null)))
                .isInstanceOf(DataIntegrityViolationException.class)
                .isNotInstanceOf(HistoryUnavailableException.class);
    }

    /** A write made from what the backend held before a delete, or before the name was submitted again, writes nothing. */
    @Test
    void aWriteReadBeforeADeleteOrANewSubmitOfTheNameWritesNothing() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("default", "again");
        JobKey key = new JobKey("default", "again");
        Instant readBefore = NOW.minusSeconds(1);
        Job finished = HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", NOW, NOW);
        history.submitted(plan);
        history.delete(key);

        assertThat(history.record(finished, readBefore)).isFalse();
        history.keepLog(key, Role.TRAINER, 0, "secret", readBefore);
        assertThat(history.find(key)).isEmpty();
        assertThat(history.keptLog(key, Role.TRAINER, 0)).isEmpty();

        history.submitted(plan); // at NOW: after what was read
        assertThat(history.record(finished, readBefore)).isFalse();
        history.keepLog(key, Role.TRAINER, 0, "secret", readBefore);
        assertThat(history.keptLog(key, Role.TRAINER, 0)).isEmpty();
        assertThat(history.record(finished, NOW)).isTrue();
        assertThat(history.find(key).orElseThrow().status().phase()).isEqualTo(JobPhase.SUCCEEDED);
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

    @Test
    void aDatabaseOfTheFirstSchemaKeepsItsJobsTheirLogsAndTheirOrderThroughTheMigration() {
        assertThat(Flyway.configure().dataSource(database).target("1").load().migrate().migrationsExecuted).isEqualTo(1);
        JdbcClient db = JdbcClient.create(database);
        JobPlan older = HistoryStores.plan("default", "older");
        JobPlan newer = HistoryStores.plan("default", "newer");
        for (JobPlan plan : List.of(older, newer)) {
            Instant created = plan == older ? NOW.minusSeconds(60) : NOW;
            db.sql("insert into job_history (namespace, name, created_at, finished_at, phase, plan_json, status_json)"
                            + " values (?, ?, ?, ?, ?, ?, ?)")
                    .params("default", plan.name(), created.toEpochMilli(), created.toEpochMilli(), "SUCCEEDED",
                            HistoryStores.JSON.writeValueAsString(plan), HistoryStores.JSON.writeValueAsString(
                                    HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", created, created).status()))
                    .update();
        }
        db.sql("insert into job_log_tails (namespace, name, replica, lines) values ('default', 'older', 'trainer-0', ?)")
                .param("loss 0.1\n").update();

        assertThat(HistoryStores.migrate(database)).isEqualTo(4);

        assertThat(listed("default")).extracting(job -> job.plan().name()).containsExactly("newer", "older");
        assertThat(history.keptLog(new JobKey("default", "older"), Role.TRAINER, 0)).hasValue("loss 0.1\n");
        assertThat(history.find(new JobKey("default", "older")).orElseThrow().status().phase())
                .isEqualTo(JobPhase.SUCCEEDED);
    }

    /** Batches of 2 through 9 jobs, 4 of them created in the same instant: the list's order, each job once. */
    @Test
    void batchesOfTheListComeInItsOrderWithEachJobOnceThroughJobsOfOneCreationTime() {
        HistoryStores.migrate(database);
        List<Job> recorded = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            Instant created = i < 4 ? NOW : NOW.minusMillis(i).plusNanos(i);
            JobPhase phase = i % 3 == 0 ? JobPhase.FAILED : JobPhase.SUCCEEDED;
            Job job = HistoryStores.job(HistoryStores.plan("default", "job-" + (char) ('a' + (i * 5) % 9)), phase,
                    phase.name(), created, created);
            history.record(job);
            recorded.add(job);
        }
        JobQuery everything = new JobQuery("default", null, Map.of(), 1000, null);
        List<String> inOrder = recorded.stream().sorted(Comparator.comparing((Job job) -> job.status().createdAt())
                .reversed().thenComparing(job -> job.plan().name())).map(job -> job.plan().name()).toList();

        assertThat(names(batches(everything, 2))).containsExactlyElementsOf(inOrder);
        assertThat(names(batches(everything, 1))).containsExactlyElementsOf(inOrder);

        JobQuery failedSince = new JobQuery("default", JobPhase.FAILED, Map.of(), NOW.minusMillis(5), null, 1000, null);
        assertThat(names(batches(failedSince, 1))).containsExactlyElementsOf(recorded.stream()
                .filter(failedSince::matches).sorted(Comparator.comparing((Job job) -> job.status().createdAt())
                        .reversed().thenComparing(job -> job.plan().name())).map(job -> job.plan().name()).toList());
        JobQuery beyondNanos = new JobQuery("default", null, Map.of(), Instant.parse("1000-01-01T00:00:00Z"),
                Instant.parse("2999-01-01T00:00:00Z"), 1000, null);
        assertThat(names(batches(beyondNanos, 4))).containsExactlyElementsOf(inOrder);
        JobQuery before = new JobQuery("default", null, Map.of(), null, NOW, 1000, null);
        assertThat(names(batches(before, 3))).hasSize(5).doesNotContainAnyElementsOf(inOrder.subList(0, 4));
    }

    @Test
    void keptMetricsReadBackAndGoWithTheJobAndWithAJobSubmittedAgainUnderItsName() {
        HistoryStores.migrate(database);
        JobPlan plan = HistoryStores.plan("default", "measured");
        JobKey key = new JobKey("default", "measured");
        history.record(HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", NOW, NOW));
        MetricsSnapshot metrics = new MetricsSnapshot(2, 1, Map.of("loss", Map.of("trainer-0", List.of(
                new MetricPoint(1, 0.5, NOW, 0), new MetricPoint(2, 0.25, NOW.plusSeconds(1), 0)))),
                new Progress(2, 2L, 1.0, null, null, "trainer-0"));
        history.keepMetrics(key, metrics, NOW);
        history.keepLog(key, Role.TRAINER, 0, "loss 0.25\n");

        assertThat(history.keptMetrics(key)).hasValue(metrics);

        history.submitted(plan);
        assertThat(history.keptMetrics(key)).isEmpty();
        assertThat(history.keptLog(key, Role.TRAINER, 0)).isEmpty();
        history.keepMetrics(key, metrics, NOW);
        assertThat(history.delete(key)).isTrue();
        assertThat(history.keptMetrics(key)).isEmpty();
    }

    private List<Job> listed(String namespace) {
        return batches(new JobQuery(namespace, null, Map.of(), 1000, null), 1000);
    }

    /** Every batch of the query from the start, as the job service reads them. */
    private List<Job> batches(JobQuery query, int count) {
        List<Job> all = new ArrayList<>();
        Instant below = null;
        do {
            JobHistory.Batch batch = history.listed(query, below, count);
            assertThat(batch.jobs().size()).isGreaterThanOrEqualTo(batch.next() == null ? 0 : count);
            all.addAll(batch.jobs());
            below = batch.next();
        } while (below != null);
        return all;
    }

    private static List<String> names(List<Job> jobs) {
        return jobs.stream().map(job -> job.plan().name()).toList();
    }

    private void recordIn(String namespace, String name, Instant finishedAt) {
        JobPlan plan = HistoryStores.plan(namespace, name);
        history.record(HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", finishedAt.minusSeconds(60), finishedAt));
    }

    private void record(String name, JobPhase phase, Instant finishedAt) {
        JobPlan plan = HistoryStores.plan("default", name);
        Instant created = finishedAt == null ? NOW : finishedAt.minusSeconds(60);
        history.record(HistoryStores.job(plan, phase, phase.name(), created, finishedAt));
    }
}
