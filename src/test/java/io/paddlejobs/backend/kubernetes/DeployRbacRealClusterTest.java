package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.queue.ClusterEvents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.ServiceAccounts;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service's permissions as deploy/ grants them, proved enough on a real API server with RBAC:
 * the backend runs as the deploy/ ServiceAccount, with a token the API server issued for it, in
 * a namespace it serves through deploy/'s RoleBinding (as application.yaml lists it), and no
 * other.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class DeployRbacRealClusterTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static ControlPlane plane;
    private static KubernetesClient admin;
    private static MockCluster.Backend running;
    private static String ns;
    /** Served too, with a ResourceQuota that refuses every pod. */
    private static String quoted;

    @BeforeAll
    static void runAsTheDeployedServiceAccount() {
        plane = RealCluster.plane();
        admin = plane.admin();
        String token = ServiceAccounts.deployedServiceToken(admin);
        ns = RealBackends.namespace(plane, "rbac");
        quoted = RealBackends.namespace(plane, "rbac-quota");
        admin.resourceQuotas().inNamespace(quoted).resource(new ResourceQuotaBuilder().withNewMetadata().withName("tight")
                .endMetadata().withNewSpec().addToHard("requests.cpu", new Quantity("100m")).endSpec().build()).create();
        ServiceAccounts.serve(admin, ns);
        ServiceAccounts.serve(admin, quoted);
        running = RealBackends.startSynced(plane, token, MockCluster.settings(List.of(ns, quoted)));
    }

    @AfterAll
    static void stop() {
        if (running != null) {
            running.close();
        }
    }

    @Test
    void theDeployedServiceAccountMaySubmitWatchAndFinishAJob() {
        running.jobs().submit(Plans.plan(RealBackends.request("allowed", 2, "paddlepaddle/paddle:2.6.1", Map.of()), ns));

        await().atMost(DEADLINE).until(() -> phase("allowed") == JobPhase.SUCCEEDED);
        // The reconciler, acting with the same token, released the trainers and stopped the pservers.
        await().atMost(DEADLINE).until(() -> Boolean.TRUE.equals(admin.batch().v1().jobs().inNamespace(ns)
                .withName(ObjectNames.pserverJob("allowed")).get().getSpec().getSuspend()));
    }

    @Test
    void theDeployedServiceAccountMayCancelAndDeleteAJob() {
        running.jobs().submit(Plans.plan(RealBackends.request("revoked", 1, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning()), ns));
        await().atMost(DEADLINE).until(() -> phase("revoked") == JobPhase.RUNNING);

        running.jobs().cancel(new JobKey(ns, "revoked"));
        await().atMost(DEADLINE).until(() -> phase("revoked") == JobPhase.CANCELLED);
        assertThat(running.jobs().delete(new JobKey(ns, "revoked"))).isTrue();

        await().atMost(DEADLINE).until(() -> admin.batch().v1().jobs().inNamespace(ns)
                .withName(ObjectNames.trainerJob("revoked")).get() == null);
    }

    @Test
    void theDeployedServiceAccountMayReadTheWarningsThatExplainAStuckJob() {
        await().atMost(DEADLINE).until(() -> admin.resourceQuotas().inNamespace(quoted).withName("tight").get()
                .getStatus() != null && admin.resourceQuotas().inNamespace(quoted).withName("tight").get().getStatus().getHard() != null);

        running.jobs().submit(Plans.plan(RealBackends.request("refused", 1, "paddlepaddle/paddle:2.6.1", Map.of()), quoted));

        // The refusal is written after the service's first look, and changes nothing it watches: it is
        // seen at the look again a pending job gets, well before the next resync (a minute).
        await().atMost(ClusterEvents.MIN_INTERVAL.plusSeconds(15)).until(() -> running.jobs().find(new JobKey(quoted, "refused"))
                .map(j -> String.valueOf(j.status().message())).orElse("").contains("exceeded quota"));
    }

    @Test
    void theDeployedServiceAccountMayNotTouchJobsInANamespaceItDoesNotServe() {
        String other = RealBackends.namespace(plane, "unserved");

        assertThatThrownBy(() -> running.client().batch().v1().jobs().inNamespace(other).list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }

    private static JobPhase phase(String job) {
        return running.jobs().find(new JobKey(ns, job)).map(j -> j.status().phase()).orElse(null);
    }
}
