package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.Progress;
import io.paddlejobs.job.QuotaAdmissionTest;
import io.paddlejobs.job.Quota;
import io.paddlejobs.metrics.MetricPoint;
import io.paddlejobs.metrics.MetricsSnapshot;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A DELETE racing the history's recorder (round 3's M3, the code review's S1): users delete a job to
 * remove a secret it printed, so once the delete has answered, nothing of the job may be written again:
 * no row, no log, no metrics, not even by a recorder that read the job from the backend before the
 * delete and writes after it. On the embedded H2 file; {@link PostgresDeleteWhileRecordingTest} runs the
 * same on PostgreSQL.
 */
@Tag("redteam")
class DeleteWhileRecordingTest extends Recording {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String NAMESPACE = "team-b";
    private static final MetricsSnapshot METRICS = new MetricsSnapshot(1, 1, Map.of("loss", Map.of("trainer-0",
            List.of(new MetricPoint(1, 0.1, Instant.parse("2026-12-06T00:00:00Z"), 0)))),
            new Progress(1, 1L, 1.0, null, null, "trainer-0"));

    JobService jobs;

    @BeforeEach
    void service() {
        jobs = QuotaAdmissionTest.service(backend, history);
    }

    @Test
    void aDeleteWhileTheRecorderHoldsWhatItReadLeavesNoRowLogOrMetricsOfTheJob() throws Exception {
        JobKey key = running("leaky", "python train.py");
        HeldJobBackend.Hold hold = backend.holdNextFind();
        backend.finish(key); // the recorder reads the finished job, and is held before it writes
        hold.awaitRead();
        recorder.keepMetrics(key, METRICS); // the collector had them all before the delete

        jobs.delete(key);
        hold.release();
        stopRecorder();

        assertThat(rowsOf(key)).as("rows left of the deleted job, by table").isEqualTo(Map.of(
                "job_history", 0, "job_transitions", 0, "job_logs", 0, "job_metrics", 0));
        assertThat(jobs.find(key)).isEmpty();
    }

    @Test
    void aJobSubmittedAgainUnderTheNameGetsNothingOfTheDeletedOne() throws Exception {
        JobKey key = running("reused", "python train.py");
        HeldJobBackend.Hold hold = backend.holdNextFind();
        backend.finish(key);
        hold.awaitRead();
        recorder.keepMetrics(key, METRICS);

        jobs.delete(key);
        jobs.submit(JobRequests.named("reused", "python train2.py").build(), NAMESPACE, Quota.NONE);
        hold.release();
        stopRecorder();

        Job kept = history.find(key).orElseThrow();
        assertThat(kept.plan().spec().code().entryPoint()).isEqualTo("python train2.py");
        assertThat(kept.status().phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(history.keptLog(key, Role.TRAINER, 0)).as("the deleted job's log").isEmpty();
        assertThat(history.keptMetrics(key)).as("the deleted job's metrics").isEmpty();
    }

    /**
     * Deletes and late writes of one job at once, 20 times: whichever commits first, nothing of the job is
     * left, and no log or metrics without their job (the store's own locking, not the recorder's thread).
     */
    @Test
    void lateWritesAndADeleteOfOneJobAtOnceLeaveNothingBehind() throws Exception {
        JobPlan plan = HistoryStores.plan(NAMESPACE, "raced");
        JobKey key = new JobKey(NAMESPACE, "raced");
        Job finished = HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", Instant.now(), Instant.now());
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                history.submitted(plan);
                Instant readAt = Instant.now(); // the recorder read the job before the delete
                CyclicBarrier together = new CyclicBarrier(2);
                List<Future<Object>> done = writers.invokeAll(List.of(
                        () -> atOnce(together, () -> {
                            history.record(finished, readAt);
                            history.keepLog(key, Role.TRAINER, 0, HeldJobBackend.LOG, readAt);
                            history.keepMetrics(key, METRICS, readAt);
                        }),
                        () -> atOnce(together, () -> history.delete(key))));
                for (Future<Object> write : done) {
                    write.get();
                }
                assertThat(rowsOf(key)).as("round " + round).isEqualTo(Map.of(
                        "job_history", 0, "job_transitions", 0, "job_logs", 0, "job_metrics", 0));
            }
        } finally {
            writers.shutdown();
        }
    }

    private static Object atOnce(CyclicBarrier together, Runnable write) throws Exception {
        together.await(10, TimeUnit.SECONDS);
        write.run();
        return null;
    }

    /** A job submitted through the service and running, recorded as such. */
    private JobKey running(String name, String entryPoint) {
        jobs.submit(JobRequests.named(name, entryPoint).build(), NAMESPACE, Quota.NONE);
        JobKey key = new JobKey(NAMESPACE, name);
        await().atMost(DEADLINE).until(() -> history.find(key).map(job -> job.status().phase() == JobPhase.RUNNING)
                .orElse(false));
        return key;
    }

    private Map<String, Integer> rowsOf(JobKey key) {
        JdbcClient db = JdbcClient.create(database);
        return Map.of("job_history", 0, "job_transitions", 0, "job_logs", 0, "job_metrics", 0).keySet().stream()
                .collect(java.util.stream.Collectors.toMap(table -> table, table -> db.sql("select count(*) from "
                        + table + " where namespace = ? and name = ?").params(key.namespace(), key.name())
                        .query(Integer.class).single()));
    }
}
