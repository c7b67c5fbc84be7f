package io.paddlejobs.backend.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.metrics.MetricsArchive;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsProperties;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metrics are collected from submit on, for every job the backend tells of (also one that was
 * there before, as after a restart of the service), but a trainer that has not started (its job
 * queued behind others) holds no thread: only running trainers are followed by one.
 */
class QueuedJobsMetricsTest {

    private static final int QUEUED = 50;

    @TempDir
    Path dataRoot;

    @Test
    void queuedJobsTakeNoFollowerThreadsAndAStartedOneIsFollowed() {
        try (var local = new LocalBackendFixture(dataRoot, 1);
             var metrics = new MetricsCollector(local.backend, new MetricsProperties(1000, 64, 64, 200), Duration.ofMillis(100),
                Clock.systemUTC(), MetricsArchive.NONE)) {
            long before = followerThreads();
            local.submit("running", "echo 'PADDLEJOBS_METRICS {\"step\": 0, \"loss\": 1.5}'; sleep 600", 1, 1);
            for (int i = 0; i < QUEUED; i++) {
                local.submit("queued-" + i, "sleep 600", 1, 1);
            }
            assertThat(local.job("queued-" + (QUEUED - 1)).status().phase()).isEqualTo(JobPhase.PENDING);

            await().atMost(LocalBackendFixture.DEADLINE)
                    .until(() -> !metrics.read(local.job("running"), 0).metrics().isEmpty());
            assertThat(followerThreads() - before).as("threads following trainers").isLessThanOrEqualTo(1);
            local.backend.cancel(new JobKey(LocalBackendFixture.NAMESPACE, "running"));
            for (int i = 0; i < QUEUED; i++) {
                local.backend.delete(new JobKey(LocalBackendFixture.NAMESPACE, "queued-" + i));
            }
        }
    }

    @Test
    void jobsNobodyReadsAreFollowedAJobThereBeforeTheCollectorAndAQueuedOneOnceItStarts() {
        try (var local = new LocalBackendFixture(dataRoot, 1)) {
            JobKey before = new JobKey(LocalBackendFixture.NAMESPACE, "before");
            JobKey queued = new JobKey(LocalBackendFixture.NAMESPACE, "queued");
            local.submit("before", "sleep 600", 1, 1);
            local.awaitPhase("before", JobPhase.RUNNING);
            var logs = new FollowedLogs(local.backend);
            try (var metrics = new MetricsCollector(logs, new MetricsProperties(1000, 64, 64, 200), Duration.ofMillis(100),
                Clock.systemUTC(), MetricsArchive.NONE)) {
                await().atMost(LocalBackendFixture.DEADLINE).until(() -> logs.followed.contains(before));
                local.submit("queued", "sleep 600", 1, 1);
                assertThat(local.job("queued").status().phase()).isEqualTo(JobPhase.PENDING);
                assertThat(logs.followed).doesNotContain(queued);

                local.backend.cancel(before);

                await().atMost(LocalBackendFixture.DEADLINE).until(() -> logs.followed.contains(queued));
                local.backend.delete(queued);
            }
        }
    }

    private static long followerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("metrics-") && !thread.getName().equals("metrics-changes"))
                .count();
    }

    @Test
    void aRestartedJobsMetricsContinueTheSeriesWithThePointsOfTheFailedAttemptKept() {
        try (var local = new LocalBackendFixture(dataRoot,
                new io.paddlejobs.planning.RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(1)));
             var metrics = new MetricsCollector(local.backend, new MetricsProperties(1000, 64, 64, 200), Duration.ofMillis(100),
                Clock.systemUTC(), MetricsArchive.NONE)) {
            local.backend.submit(local.plan(io.paddlejobs.planning.JobRequests.named("resumed",
                    "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then echo 'PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 2.0}';"
                            + " exit 1; fi; echo 'PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 1.0}'")
                    .spec("max_restarts=1 mode=collective trainers=1").build()));

            local.awaitPhase("resumed", JobPhase.SUCCEEDED);

            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                    assertThat(metrics.read(local.job("resumed"), 0).metrics().get("loss").get("trainer-0"))
                            .extracting(io.paddlejobs.metrics.MetricPoint::step).containsExactly(1L, 2L));
        }
    }
}
