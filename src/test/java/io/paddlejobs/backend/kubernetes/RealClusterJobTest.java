package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.web.ErrorResponseException;

/**
 * The backend against a real kube-apiserver (validation, RBAC, Pod Security "restricted"), the
 * real Job and garbage-collector controllers, the real scheduler, and fake nodes whose pods
 * kwok moves through their phases. What the mock server cannot judge.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterJobTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static ControlPlane plane;
    private static KubernetesClient admin;
    private static MockCluster.Backend running;
    private static KubernetesJobBackend backend;

    private String ns;

    @BeforeAll
    static void connect() {
        plane = RealCluster.plane();
        admin = plane.admin();
        running = RealBackends.startSynced(plane, plane.adminToken());
        backend = running.jobs();
    }

    @AfterAll
    static void disconnect() {
        if (running != null) {
            running.close();
        }
    }

    @BeforeEach
    void namespace() {
        ns = RealBackends.namespace(plane, "jobs");
    }

    @Test
    void everyObjectOfAJobIsAcceptedAndItsPodsAdmittedUnderTheRestrictedProfile() {
        backend.submit(Plans.plan(RealBackends.request("mnist", 2, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning()), ns));

        await().atMost(DEADLINE).until(() -> pods("mnist").size() == 3);
        // The pods stand for their workloads: a pod exists only where its Job was accepted.
        List<HasMetadata> objects = List.of(admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob("mnist")).get(),
                admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob("mnist")).get(),
                admin.services().inNamespace(ns).withName(ObjectNames.service("mnist")).get());
        assertThat(objects).doesNotContainNull();
        assertThat(refusals()).as("FailedCreate events of the controllers").isEmpty();
        assertThat(pods("mnist")).extracting(pod -> pod.getSpec().getHostname() + "." + pod.getSpec().getSubdomain())
                .containsExactlyInAnyOrder("mnist-pserver-0.mnist", "mnist-trainer-0.mnist", "mnist-trainer-1.mnist");
        await().atMost(DEADLINE).until(() -> phase("mnist") == JobPhase.RUNNING);
    }

    @Test
    void aJobRunsThroughPendingAndRunningToSucceededAndItsPserversAreStopped() {
        Job submitted = backend.submit(Plans.plan(RealBackends.request("fit", 2, "paddlepaddle/paddle:2.6.1", Map.of()), ns));

        List<JobPhase> seen = new ArrayList<>(List.of(submitted.status().phase()));
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> {
            JobPhase now = phase("fit");
            if (now != null && (seen.isEmpty() || seen.get(seen.size() - 1) != now)) {
                seen.add(now);
            }
            return now == JobPhase.SUCCEEDED;
        });

        assertThat(seen).containsExactly(JobPhase.PENDING, JobPhase.RUNNING, JobPhase.SUCCEEDED);
        await().atMost(DEADLINE).until(() -> pods("fit", Role.PSERVER).isEmpty());
        assertThat(admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob("fit")).get()
                .getSpec().getSuspend()).as("the pserver Job is suspended").isTrue();
        Job done = backend.find(new JobKey(ns, "fit")).orElseThrow();
        assertThat(done.status().replicas()).filteredOn(r -> r.role() == Role.TRAINER)
                .extracting(r -> r.state()).containsOnly(ReplicaState.SUCCEEDED);
    }

    @Test
    void aCancelledJobIsRemovedWithEverythingItOwnedOnceItsTimeToLiveHasPassed() {
        var shortLived = MockCluster.settings(List.of(ns), "resync", "1s", "ttl-seconds-after-finished", 2);
        try (var quick = RealBackends.start(plane, plane.adminToken(), shortLived)) {
            quick.jobs().submit(Plans.plan(RealBackends.request("brief", 1, "paddlepaddle/paddle:2.6.1",
                    FakeKubelet.trainersKeepRunning()), ns));
            await().atMost(DEADLINE).until(() -> phaseIn(quick, "brief") == JobPhase.RUNNING);

            quick.jobs().cancel(new JobKey(ns, "brief"));

            await().atMost(DEADLINE).until(() -> pods("brief").isEmpty() && phaseIn(quick, "brief") == JobPhase.CANCELLED);
            await().atMost(DEADLINE).until(() -> admin.batch().v1().jobs().inNamespace(ns).list().getItems().isEmpty()
                    && admin.services().inNamespace(ns).list().getItems().isEmpty());
        }
    }

    private JobPhase phaseIn(MockCluster.Backend in, String job) {
        return in.jobs().find(new JobKey(ns, job)).map(j -> j.status().phase()).orElse(null);
    }

    @Test
    void deleteLetsTheGarbageCollectorRemoveEverythingTheJobOwned() {
        backend.submit(Plans.plan(RealBackends.request("gone", 2, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning()), ns));
        await().atMost(DEADLINE).until(() -> phase("gone") == JobPhase.RUNNING);

        assertThat(backend.delete(new JobKey(ns, "gone"))).isTrue();

        await().atMost(DEADLINE).until(() -> pods("gone").isEmpty()
                && admin.services().inNamespace(ns).list().getItems().isEmpty()
                && admin.batch().v1().jobs().inNamespace(ns).list().getItems().isEmpty());
        await().atMost(DEADLINE).until(() -> backend.find(new JobKey(ns, "gone")).isEmpty());
    }

    @Test
    void aNameTheApiServerRefusesForTheServiceLeavesNothingBehind() {
        // A Service name must be a DNS-1035 label (start with a letter); a Job name need not.
        assertThatThrownBy(() -> backend.submit(Plans.plan(RealBackends.request("1abc", 1, "paddlepaddle/paddle:2.6.1",
                Map.of()), ns))).isInstanceOf(ErrorResponseException.class);

        await().atMost(DEADLINE).until(() -> admin.batch().v1().jobs().inNamespace(ns).list().getItems().isEmpty()
                && admin.services().inNamespace(ns).list().getItems().isEmpty());
        assertThat(backend.find(new JobKey(ns, "1abc"))).isEmpty();
    }

    @Test
    void aGpuTrainerIsPlacedOnANodeWithFreeGpus() {
        backend.submit(Plans.plan(RealBackends.gpuRequest("gpus", 2, FakeKubelet.trainersKeepRunning()), ns));

        await().atMost(DEADLINE).until(() -> phase("gpus") == JobPhase.RUNNING);
        assertThat(pods("gpus", Role.TRAINER)).singleElement().satisfies(pod ->
                assertThat(pod.getSpec().getNodeName()).isNotBlank());
    }

    @Test
    void aTrainerNeedingMoreGpusThanAnyNodeHasIsReportedAsUnschedulable() {
        backend.submit(Plans.plan(RealBackends.gpuRequest("greedy", 5, Map.of()), ns));

        await().atMost(DEADLINE).until(() -> backend.find(new JobKey(ns, "greedy"))
                .map(j -> j.status().message()).orElse("").contains("Insufficient nvidia.com/gpu"));
        assertThat(backend.find(new JobKey(ns, "greedy")).orElseThrow().status().reason()).isEqualTo("Unschedulable");
    }

    @Test
    void anImageThatCannotBePulledIsReportedInWords() {
        backend.submit(Plans.plan(RealBackends.request("pull", 1, FakeKubelet.UNPULLABLE_IMAGE, Map.of()), ns));

        await().atMost(DEADLINE).until(() -> backend.find(new JobKey(ns, "pull"))
                .map(j -> j.status().message()).orElse("").contains("cannot pull image"));
        assertThat(phase("pull")).isEqualTo(JobPhase.PENDING);
    }

    @Test
    void aQuotaThatRefusesThePodsIsReportedInWords() {
        admin.resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder().withNewMetadata().withName("tight")
                .endMetadata().withNewSpec().addToHard("requests.cpu", new Quantity("100m")).endSpec().build()).create();
        await().atMost(DEADLINE).until(() -> admin.resourceQuotas().inNamespace(ns).withName("tight").get()
                .getStatus() != null && admin.resourceQuotas().inNamespace(ns).withName("tight").get().getStatus().getHard() != null);

        backend.submit(Plans.plan(RealBackends.request("quota", 1, "paddlepaddle/paddle:2.6.1", Map.of()), ns));

        await().atMost(DEADLINE).until(() -> backend.find(new JobKey(ns, "quota"))
                .map(j -> j.status().message()).orElse("").contains("exceeded quota"));
        assertThat(phase("quota")).isEqualTo(JobPhase.PENDING);
    }

    private JobPhase phase(String job) {
        return backend.find(new JobKey(ns, job)).map(j -> j.status().phase()).orElse(null);
    }

    private List<Pod> pods(String job) {
        return admin.pods().inNamespace(ns).withLabels(JobLabels.selector(job)).list().getItems();
    }

    private List<Pod> pods(String job, Role role) {
        return admin.pods().inNamespace(ns).withLabels(JobLabels.selector(job, role)).list().getItems();
    }

    private List<String> refusals() {
        return admin.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "FailedCreate".equals(e.getReason())).map(Event::getMessage).toList();
    }
}
