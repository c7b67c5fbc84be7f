package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobRequests;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The example job on a real (k3s) API server, in a namespace that enforces the restricted Pod
 * Security profile: the server's validation, admission and controllers accept what the mock
 * server cannot judge. Needs Docker; skipped without it.
 */
@Tag("cluster")
@Testcontainers(disabledWithoutDocker = true)
class K3sExampleJobTest {

    private static final String NS = "paddle-example";

    @Container
    static final K3sContainer K3S = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

    private static KubernetesClient admin;
    private static MockCluster.Backend backend;

    @BeforeAll
    static void connect() {
        Config config = Config.fromKubeconfig(K3S.getKubeConfigYaml());
        admin = new KubernetesClientBuilder().withConfig(config).build();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
        admin.persistentVolumeClaims().inNamespace(NS).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("paddle-data").endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().addToRequests("storage", new Quantity("64Mi")).endResources().endSpec()
                .build()).create();

        // One node: the ReadWriteOnce claim of k3s' local-path provisioner serves every pod.
        var settings = MockCluster.settings(List.of(), "require-shared-data-claim", false);
        var client = new KubernetesClientBuilder().withConfig(config).build();
        backend = new MockCluster.Backend(client, KubernetesRuntime.start(client, settings, Plans.PLANNER,
                Clock.systemUTC()));
    }

    @AfterAll
    static void disconnect() {
        if (backend != null) {
            backend.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    @Test
    void theExampleJobIsAdmittedRunsUnderTheRestrictedProfileAndSucceeds() {
        // The pserver listens on its endpoint (readiness, then the trainers' wait) until it is stopped.
        var request = JobRequests.named("example", "echo trainer $PADDLE_TRAINER_ID of $PADDLE_TRAINERS_NUM")
                .pserverEntryPoint("while true; do nc -l -p $PADDLE_PORT >/dev/null; done")
                .spec("image=busybox:1.36 num_cpus=1 memory=128Mi trainers=2 pservers=1 pserver_mem=64Mi")
                .labels(Map.of("example", "true")).build();
        backend.jobs().submit(Plans.plan(request, NS));

        await().atMost(Duration.ofMinutes(2)).until(() ->
                admin.pods().inNamespace(NS).withLabels(JobLabels.selector("example")).list().getItems().size() == 3);
        await().atMost(Duration.ofMinutes(2)).until(() -> backend.jobs().find(new JobKey(NS, "example")).isPresent());
        assertThat(admin.pods().inNamespace(NS).withLabels(JobLabels.selector("example")).list().getItems())
                .extracting(pod -> pod.getSpec().getHostname())
                .containsExactlyInAnyOrder("example-pserver-0", "example-trainer-0", "example-trainer-1");
        await().atMost(Duration.ofMinutes(3)).until(() -> backend.jobs().find(new JobKey(NS, "example"))
                .map(job -> job.status().phase()).orElse(null) == io.paddlejobs.job.JobPhase.SUCCEEDED);
    }
}
