package io.paddlejobs.backend.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsProperties;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metrics are collected from submit on, but a trainer that has not started (its job queued
 * behind others) holds no thread: only running trainers are followed by one.
 */
class QueuedJobsMetricsTest {

    private static final int QUEUED = 50;

    @TempDir
    Path dataRoot;

    @Test
    void queuedJobsTakeNoFollowerThreadsAndAStartedOneIsFollowed() {
        try (var local = new LocalBackendFixture(dataRoot, 1);
             var metrics = new MetricsCollector(local.backend, new MetricsProperties(1000, 64, 64, 200,
                     Duration.ofMillis(100)), Clock.systemUTC())) {
            long before = followerThreads();
            Job running = local.submit("running", "echo 'PADDLEJOBS_METRICS {\"step\": 0, \"loss\": 1.5}'; sleep 600", 1, 1);
            metrics.watch(running);
            for (int i = 0; i < QUEUED; i++) {
                metrics.watch(local.submit("queued-" + i, "sleep 600", 1, 1));
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

    private static long followerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("metrics-") && !thread.getName().equals("metrics-waiting"))
                .count();
    }
}
