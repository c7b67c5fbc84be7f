package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.ClusterUnavailableException;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.health.contributor.Status;

/** kube-apiserver stopped under a running service, then started again: no restart of the service needed. */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class ApiServerOutageRealClusterTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static ControlPlane plane;
    private static MockCluster.Backend running;
    private static String ns;

    @BeforeAll
    static void start() {
        plane = RealCluster.plane();
        ns = RealBackends.namespace(plane, "outage");
        // The shipped timeouts, as a user waiting on a submit meets them.
        var shipped = Settings.of(KubernetesConnection.class, "master-url", plane.masterUrl());
        running = RealBackends.startSynced(plane, plane.adminToken(), shipped, Settings.defaults(KubernetesProperties.class));
    }

    @AfterAll
    static void stop() {
        if (running != null) {
            running.close();
        }
    }

    @Test
    void whileTheApiServerIsAwaySubmitsAre503AndAfterItReturnsStatusIsRightAgain() {
        running.jobs().submit(Plans.plan(RealBackends.request("steady", 1, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning()), ns));
        await().atMost(DEADLINE).until(() -> phase("steady") == JobPhase.RUNNING);

        plane.stopApiServer();
        try {
            // A 503 to send back before a user's client gives up, not a hang (the client makes one attempt: ClusterDownTest).
            assertTimeoutPreemptively(ServiceClient.USER_TIMEOUT, () -> assertThatThrownBy(() -> running.jobs().submit(
                    Plans.plan(RealBackends.request("refused", 1, "paddlepaddle/paddle:2.6.1", Map.of()), ns)))
                    .isInstanceOfSatisfying(ClusterUnavailableException.class,
                            e -> assertThat(e.getStatusCode().value()).isEqualTo(503)));
            await().atMost(DEADLINE).until(() ->
                    new KubernetesHealthIndicator(running.cache()).health().getStatus().equals(Status.DOWN));
        } finally {
            plane.startApiServer();
        }

        await().atMost(DEADLINE).until(() ->
                new KubernetesHealthIndicator(running.cache()).health().getStatus().equals(Status.UP));
        // A change made after the outage reaches the service: its watches were re-established.
        plane.admin().batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob("steady")).delete();
        await().atMost(DEADLINE).until(() -> running.jobs().find(new JobKey(ns, "steady")).isEmpty());
        running.jobs().submit(Plans.plan(RealBackends.request("after", 1, "paddlepaddle/paddle:2.6.1", Map.of()), ns));
        await().atMost(DEADLINE).until(() -> phase("after") == JobPhase.SUCCEEDED);
    }

    private static JobPhase phase(String job) {
        return running.jobs().find(new JobKey(ns, job)).map(j -> j.status().phase()).orElse(null);
    }
}
