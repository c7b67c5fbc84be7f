package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static io.paddlejobs.backend.kubernetes.ClusterReads.phase;
import static io.paddlejobs.backend.kubernetes.ClusterReads.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsProperties;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code stall_timeout} with the real Job controller, garbage collector, scheduler and kwok's kubelets,
 * and the metrics collector following every trainer's log as in the service. kwok's nodes serve no
 * logs, so every trainer here stays silent however long it runs: its job shows the {@code Stalled}
 * warning, or, with {@code stall} in {@code restart_on}, is restarted as a failed attempt and fails
 * once its restarts are spent. That a line a trainer prints keeps its job alive is KubernetesStallsTest's.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterStallsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Duration STALL = Duration.ofSeconds(2);
    private static final String SILENCE = "no trainer printed a line or reported a metric for 2 s (stall_timeout): trainer-0 since ";
    private static final RestartBackoff QUICK = new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(2));

    private static ControlPlane plane;
    private static KubernetesClient admin;
    private static ClusterReads reads;
    private static MockCluster.Backend backend;
    private static MetricsCollector metrics;
    private static String warned;
    private static String restarted;

    @BeforeAll
    static void start() {
        plane = RealCluster.plane();
        admin = plane.admin();
        reads = new ClusterReads(admin);
        String claim = Settings.defaults(KubernetesProperties.class).dataClaim();
        warned = RestrictedNamespaces.create(admin, "stalled", claim);
        restarted = RestrictedNamespaces.create(admin, "stall-restart", claim);
        backend = RealBackends.start(plane, plane.adminToken(), MockCluster.settings(List.of(warned, restarted)), QUICK);
        metrics = new MetricsCollector(backend.jobs(), Settings.defaults(MetricsProperties.class), Clock.systemUTC());
        await().atMost(DEADLINE).until(() -> backend.cache().synced());
    }

    @AfterAll
    static void stop() {
        if (metrics != null) {
            metrics.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void aRunningTrainerSilentForItsStallTimeoutShowsTheStalledWarningAndKeepsRunning() {
        JobKey key = new JobKey(warned, "hung");
        backend.jobs().submit(Plans.plan(JobRequests.Builder.from(RealBackends.request("hung", 1, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning())).stallTimeout(STALL).build(), warned));

        await().atMost(DEADLINE).until(() -> StallWatch.STALLED.equals(reason(key)));
        JobStatus status = backend.jobs().find(key).orElseThrow().status();
        assertThat(status.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(status.message()).startsWith(SILENCE);
        assertThat(running(reads.pods(warned, "hung", Role.TRAINER))).isEqualTo(1);

        backend.jobs().cancel(key);
        await().atMost(DEADLINE).until(() -> phase(backend, key) == JobPhase.CANCELLED);
    }

    @Test
    void withStallInRestartOnASilentAttemptIsRestartedAndTheJobFailsOnceTheRestartsAreSpent() {
        JobKey key = new JobKey(restarted, "hangs");
        backend.jobs().submit(Plans.plan(JobRequests.Builder.from(RealBackends.request("hangs", 1,
                "paddlepaddle/paddle:2.6.1", FakeKubelet.trainersKeepRunning())).stallTimeout(STALL).maxRestarts(1)
                .restartOn(RestartOn.parse("stall")).build(), restarted));

        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> backend.jobs().find(key)
                .map(job -> job.status().restarts() == 1).orElse(false));
        long stalledAt = System.nanoTime();
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> reads.pods(restarted, "hangs", Role.TRAINER)
                .stream().filter(p -> "1".equals(p.getMetadata().getLabels().get(JobLabels.ATTEMPT)))
                .anyMatch(p -> "Running".equals(p.getStatus().getPhase())));
        System.out.printf("stall restart: stall seen to next attempt's trainer running: %d ms (backoff %d ms)%n",
                Duration.ofNanos(System.nanoTime() - stalledAt).toMillis(), QUICK.before(1).toMillis());

        await().atMost(DEADLINE).until(() -> phase(backend, key) == JobPhase.FAILED);
        JobStatus status = backend.jobs().find(key).orElseThrow().status();
        assertThat(status.reason()).isEqualTo(StallWatch.STALLED);
        assertThat(status.message()).startsWith("failed after 1 restart: " + SILENCE);
        assertThat(status.restarts()).isEqualTo(1);
        assertThat(status.attempts()).extracting(Attempt::number).containsExactly(0, 1);
        assertThat(status.attempts().get(0).reason()).isEqualTo(StallWatch.STALLED);
        assertThat(status.attempts().get(0).message()).startsWith(SILENCE);
        // The failed job's replicas are stopped: no trainer of either attempt runs on.
        await().atMost(DEADLINE).until(() -> running(reads.pods(restarted, "hangs", Role.TRAINER)) == 0);
    }

    private static String reason(JobKey key) {
        return backend.jobs().find(key).map(j -> j.status().reason()).orElse(null);
    }
}
