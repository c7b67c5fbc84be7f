package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static io.paddlejobs.backend.kubernetes.ClusterReads.message;
import static io.paddlejobs.backend.kubernetes.ClusterReads.phase;
import static io.paddlejobs.backend.kubernetes.ClusterReads.suspended;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A job's past on the real control plane: what happened while no replica of the service ran, and
 * what a job of the same name left behind before it (its Events outlive it).
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterRecoveryTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String IMAGE = "paddlepaddle/paddle:2.6.1";

    private static ControlPlane plane;
    private static KubernetesClient admin;
    private static ClusterReads reads;
    private static MockCluster.Backend backend;
    private static String again;
    private static String restart;

    @BeforeAll
    static void start() {
        plane = RealCluster.plane();
        admin = plane.admin();
        reads = new ClusterReads(admin);
        String claim = Settings.defaults(KubernetesProperties.class).dataClaim();
        again = RestrictedNamespaces.create(admin, "again", claim);
        restart = RestrictedNamespaces.create(admin, "restart", claim);
        backend = RealBackends.start(plane, plane.adminToken(), MockCluster.settings(List.of(again), "resync", "1s"));
        await().atMost(DEADLINE).until(() -> backend.cache().synced());
    }

    @AfterAll
    static void stop() {
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void aJobSubmittedAgainUnderTheSameNameIsNotExplainedByTheWarningsOfItsPredecessor() {
        JobKey key = new JobKey(again, "retry");
        admin.resourceQuotas().inNamespace(again).resource(new ResourceQuotaBuilder().withNewMetadata().withName("tight")
                .endMetadata().withNewSpec().addToHard("requests.cpu", new Quantity("100m")).endSpec().build()).create();
        await().atMost(DEADLINE).until(() -> admin.resourceQuotas().inNamespace(again).withName("tight").get()
                .getStatus() != null && admin.resourceQuotas().inNamespace(again).withName("tight").get().getStatus().getHard() != null);
        backend.jobs().submit(Plans.plan(RealBackends.request("retry", 1, IMAGE, Map.of()), again));
        await().atMost(DEADLINE).until(() -> message(backend, key).contains("exceeded quota"));
        backend.jobs().delete(key);
        admin.resourceQuotas().inNamespace(again).withName("tight").delete();
        await().atMost(DEADLINE).until(() -> admin.batch().v1().jobs().inNamespace(again).list().getItems().isEmpty()
                && admin.resourceQuotas().inNamespace(again).list().getItems().isEmpty());

        backend.jobs().submit(Plans.plan(RealBackends.request("retry", 1, IMAGE, FakeKubelet.podsStuckCreating()), again));

        await().atMost(DEADLINE).until(() -> reads.pods(again, "retry", Role.PSERVER).size() == 1);
        await().during(Duration.ofSeconds(3)).atMost(DEADLINE).until(() -> !message(backend, key).contains("exceeded quota"));
        backend.jobs().delete(key);
    }

    @Test
    void aPserverThatFailedWhileNoReplicaOfTheServiceRanFailsTheJobWhenOneStarts() {
        JobKey key = new JobKey(restart, "orphan");
        var settings = MockCluster.settings(List.of(restart), "resync", "1s");
        MockCluster.Backend first = RealBackends.startSynced(plane, plane.adminToken(), settings);
        try {
            first.jobs().submit(Plans.plan(RealBackends.request("orphan", 1, IMAGE,
                    FakeKubelet.pserversCrashWith(1), FakeKubelet.trainersKeepRunning()), restart));
            await().atMost(DEADLINE).until(() -> !suspended(reads.trainerJob(restart, "orphan")));
        } finally {
            first.close();
        }
        await().atMost(DEADLINE).until(() -> reads.pods(restart, "orphan", Role.PSERVER).stream()
                .anyMatch(p -> "Failed".equals(p.getStatus().getPhase())));
        assertThat(reads.trainerJob(restart, "orphan").getMetadata().getAnnotations())
                .as("nobody recorded the failure yet").doesNotContainKey(JobLabels.FAILED_AT_ANNOTATION);

        MockCluster.Backend second = RealBackends.start(plane, plane.adminToken(), settings);
        try {
            await().atMost(DEADLINE).until(() -> reads.trainerJob(restart, "orphan").getMetadata().getAnnotations()
                    .containsKey(JobLabels.FAILED_AT_ANNOTATION));
            assertThat(phase(second, key)).isEqualTo(JobPhase.FAILED);
            await().atMost(DEADLINE).until(() -> suspended(reads.trainerJob(restart, "orphan"))
                    && reads.pods(restart, "orphan", Role.TRAINER).isEmpty());
        } finally {
            second.close();
        }
    }
}
