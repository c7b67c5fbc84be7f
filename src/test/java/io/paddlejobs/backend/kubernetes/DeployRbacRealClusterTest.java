package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.cluster.ServiceAccounts;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service's permissions as deploy/ grants them, proved enough on a real API server with RBAC:
 * the backend runs as the deploy/ ServiceAccount, with a token the API server issued for it.
 */
@ExtendWith(RealCluster.class)
class DeployRbacRealClusterTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static KubernetesClient admin;
    private static MockCluster.Backend running;
    private static String ns;

    @BeforeAll
    static void runAsTheDeployedServiceAccount() {
        ControlPlane plane = RealCluster.plane();
        admin = plane.admin();
        String token = ServiceAccounts.deployedServiceToken(admin);
        ns = RestrictedNamespaces.create(admin, "rbac", RealBackends.settings(plane).dataClaim());
        running = RealBackends.start(plane, token);
        await().atMost(DEADLINE).until(() -> running.cache().synced());
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
        // The reconciler, acting with the same token, scaled the pservers down.
        await().atMost(DEADLINE).until(() -> admin.pods().inNamespace(ns)
                .withLabels(JobLabels.selector("allowed", Role.PSERVER)).list().getItems().isEmpty());
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

    private static JobPhase phase(String job) {
        return running.jobs().find(new JobKey(ns, job)).map(j -> j.status().phase()).orElse(null);
    }
}
