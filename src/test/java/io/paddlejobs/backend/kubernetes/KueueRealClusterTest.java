package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.backend.kubernetes.queue.QueueWaits;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.KueueCluster;
import io.paddlejobs.cluster.KueueQueues;
import io.paddlejobs.cluster.ServiceAccounts;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jobs in a Kueue queue on a real control plane with the real Kueue controller (and JobSet's,
 * whose CRD is served), and fake nodes with 8 GPUs in all: a ClusterQueue of 6 GPUs decides. The
 * service runs as deploy/'s service account, so its RBAC is judged too.
 */
@Tag("cluster")
@ExtendWith(KueueCluster.class)
class KueueRealClusterTest {

    /** Generous: Kueue, the Job controller and kwok each take their turn on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofMinutes(3);
    private static final String QUEUE = "gpu-team";

    private final ControlPlane plane = KueueCluster.plane();
    private final KubernetesClient admin = plane.admin();
    private String ns;
    private MockCluster.Backend running;
    private KubernetesJobBackend backend;

    @BeforeEach
    void queue() {
        ns = RealBackends.namespace(plane, "kueue");
        KueueQueues.create(admin, "cq-" + ns, Map.of("cpu", "64", "memory", "256Gi", "nvidia.com/gpu", "6"), ns, QUEUE);
        ServiceAccounts.serve(admin, ns);
        running = RealBackends.startSynced(plane, ServiceAccounts.deployedServiceToken(admin),
                MockCluster.settings(List.of(ns), "queues." + ns, QUEUE, "resync", "2s"));
        backend = running.jobs();
    }

    @AfterEach
    void stop() {
        running.close();
    }

    @Test
    void twoFourGpuJobsInASixGpuQueueRunOneAfterTheOtherAndTheSecondSaysWhyItWaitsAndWhereItStands() {
        Instant submitted = Instant.now();
        backend.submit(Plans.plan(RealBackends.gpuRequest("first", 4, FakeKubelet.trainersKeepRunning()), ns));
        await().atMost(DEADLINE).until(() -> phase("first") == JobPhase.RUNNING);
        System.out.printf("Kueue: submit to Running of a queued 4-GPU job: %d ms%n",
                Duration.between(submitted, Instant.now()).toMillis());
        backend.submit(Plans.plan(RealBackends.gpuRequest("second", 4, Map.of()), ns));

        AtomicInteger mostTrainersAtOnce = new AtomicInteger();
        await().atMost(DEADLINE).until(() -> {
            mostTrainersAtOnce.accumulateAndGet(liveTrainers(), Math::max);
            return status("second").map(s -> PodStates.QUEUED.equals(s.status().reason())
                    && s.status().message().contains("insufficient unused quota for nvidia.com/gpu")).orElse(false);
        });
        Job waiting = status("second").orElseThrow();
        assertThat(waiting.status().phase()).isEqualTo(JobPhase.PENDING);
        assertThat(waiting.status().message()).contains("waiting in queue " + QUEUE, "ClusterQueue cq-" + ns);
        assertThat(pods("second", Role.TRAINER)).as("no partial start: the second job's trainers hold nothing").isEmpty();
        assertThat(trainerJob("second").getSpec().getSuspend()).as("Kueue holds it").isTrue();

        // Kueue's visibility API tells each waiting job its place, oldest first; a third one waits behind.
        backend.submit(Plans.plan(RealBackends.gpuRequest("third", 4, Map.of()), ns));
        await().atMost(DEADLINE).until(() -> position("second") != null && position("third") != null);
        assertThat(position("second")).isEqualTo(1);
        assertThat(position("third")).isEqualTo(2);
        assertThat(status("third").orElseThrow().status().message())
                .contains("waiting in queue " + QUEUE + " (ClusterQueue cq-" + ns + "), number 2 in line (2 in its ClusterQueue)");
        assertThat(backend.delete(new JobKey(ns, "third"))).isTrue();
        await().atMost(DEADLINE).until(() -> status("third").isEmpty());

        FakeKubelet.exit(admin, pods("first", Role.TRAINER).get(0), 0);
        await().atMost(DEADLINE).until(() -> {
            mostTrainersAtOnce.accumulateAndGet(liveTrainers(), Math::max);
            return phase("first") == JobPhase.SUCCEEDED && phase("second") == JobPhase.SUCCEEDED;
        });
        assertThat(mostTrainersAtOnce.get()).as("4-GPU trainers running at once under a 6-GPU quota").isEqualTo(1);
        await().atMost(DEADLINE).until(() -> pods("second", Role.PSERVER).isEmpty());
    }

    @Test
    void aCancelledRunningQueuedJobEndsThroughKueueAndItsDeadlineAndFreesItsQuota() {
        backend.submit(Plans.plan(RealBackends.gpuRequest("cancelled", 4, FakeKubelet.trainersKeepRunning()), ns));
        await().atMost(DEADLINE).until(() -> phase("cancelled") == JobPhase.RUNNING);

        backend.cancel(new JobKey(ns, "cancelled"));

        await().atMost(DEADLINE).until(() -> phase("cancelled") == JobPhase.CANCELLED && pods("cancelled").isEmpty());
        var trainers = trainerJob("cancelled");
        assertThat(trainers.getSpec().getActiveDeadlineSeconds()).isEqualTo(Workloads.NO_MORE_TIME);
        assertThat(workloadsOf(trainers)).as("deactivated: Kueue admits it no more").isNotEmpty()
                .allMatch(KueueRealClusterTest::inactive);
        assertThat(admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob("cancelled")).get()).isNull();
        await("Kueue holds no quota for it: ended, or evicted").atMost(DEADLINE).until(() -> workloads().stream()
                .allMatch(workload -> finished(workload) || inactive(workload)));

        backend.submit(Plans.plan(RealBackends.gpuRequest("next", 4, Map.of()), ns));
        await().atMost(DEADLINE).until(() -> phase("next") == JobPhase.SUCCEEDED);

        assertThat(backend.delete(new JobKey(ns, "next"))).isTrue();
        await().atMost(DEADLINE).until(() -> pods("next").isEmpty() && trainerJobOrNull("next") == null);
    }

    /**
     * The report: a job cancelled while it waited in the queue read Cancelled, but its trainer Workload stayed
     * in the ClusterQueue, and once the jobs ahead finished Kueue admitted it and its trainers ran on the
     * team's quota (its {@code activeDeadlineSeconds} only counts once a Job runs). Its Workload is now
     * deactivated: it leaves the queue at once, and the job behind it goes first.
     */
    @Test
    void aJobCancelledWhileItWaitsInTheQueueNeverRunsAndTheJobBehindItGoesFirst() {
        backend.submit(Plans.plan(RealBackends.gpuRequest("ahead", 4, FakeKubelet.trainersKeepRunning()), ns));
        await().atMost(DEADLINE).until(() -> phase("ahead") == JobPhase.RUNNING);
        backend.submit(Plans.plan(RealBackends.gpuRequest("waits", 4, Map.of()), ns));
        await().atMost(DEADLINE).until(() -> status("waits").map(s -> PodStates.QUEUED.equals(s.status().reason()))
                .orElse(false) && !workloadsOf(trainerJob("waits")).isEmpty());

        assertThat(backend.cancel(new JobKey(ns, "waits")).orElseThrow().status().phase()).isEqualTo(JobPhase.CANCELLED);

        assertThat(workloadsOf(trainerJob("waits"))).as("out of the queue at once").allMatch(KueueRealClusterTest::inactive);
        backend.submit(Plans.plan(RealBackends.gpuRequest("behind", 4, Map.of()), ns));
        FakeKubelet.exit(admin, pods("ahead", Role.TRAINER).get(0), 0);
        await().atMost(DEADLINE).until(() -> phase("behind") == JobPhase.SUCCEEDED);
        assertThat(trainerJob("waits").getStatus() == null ? null : trainerJob("waits").getStatus().getStartTime())
                .as("its trainer Job never ran, though it was ahead of the job that did").isNull();
        assertThat(pods("waits", Role.TRAINER)).isEmpty();
        assertThat(phase("waits")).isEqualTo(JobPhase.CANCELLED);
    }

    @Test
    void aJobOutsideAnyQueueRunsAsOnABareClusterBesideKueue() {
        var bare = MockCluster.settings(List.of(ns), "resync", "2s");
        try (var plain = RealBackends.startSynced(plane, plane.adminToken(), bare)) {
            Instant submitted = Instant.now();
            plain.jobs().submit(Plans.plan(RealBackends.gpuRequest("plain", 4, FakeKubelet.trainersKeepRunning()), ns));
            await().atMost(DEADLINE).until(() -> plain.jobs().find(new JobKey(ns, "plain"))
                    .map(j -> j.status().phase()).orElse(null) == JobPhase.RUNNING);
            System.out.printf("no queue: submit to Running of a 4-GPU job: %d ms%n",
                    Duration.between(submitted, Instant.now()).toMillis());
            assertThat(trainerJob("plain").getMetadata().getLabels()).doesNotContainKey(KueueLabels.QUEUE_NAME);
            assertThat(workloads()).as("Kueue leaves it alone").isEmpty();
        }
    }

    @Test
    void aQueuedJobIsRemovedItsTtlAfterItEndedWithItsWorkloads() {
        var shortLived = MockCluster.settings(List.of(ns), "queues." + ns, QUEUE, "resync", "2s", "ttl-seconds-after-finished", "2");
        try (var service = RealBackends.startSynced(plane, plane.adminToken(), shortLived)) {
            service.jobs().submit(Plans.plan(RealBackends.gpuRequest("brief", 2, Map.of()), ns));
            await().atMost(DEADLINE).until(() -> service.jobs().find(new JobKey(ns, "brief"))
                    .map(j -> j.status().phase() == JobPhase.SUCCEEDED).orElse(false) || trainerJobOrNull("brief") == null);
            assertThat(workloads()).as("Kueue admitted it").isNotEmpty();

            await("the TTL controller removed it, Kueue's Workloads with it").atMost(DEADLINE).until(() ->
                    trainerJobOrNull("brief") == null && pods("brief").isEmpty() && workloads().isEmpty());
            await().atMost(DEADLINE).until(() -> service.jobs().find(new JobKey(ns, "brief")).isEmpty());
        }
    }

    @Test
    void anAdmittedJobWhosePodsAResourceQuotaRefusesSaysSoInTheApiServersWords() {
        admin.resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder().withNewMetadata().withName("one-pod")
                .endMetadata().withNewSpec().addToHard("pods", new Quantity("1")).endSpec().build()).create();
        await().atMost(DEADLINE).until(() -> {
            var quota = admin.resourceQuotas().inNamespace(ns).withName("one-pod").get();
            return quota.getStatus() != null && quota.getStatus().getHard() != null;
        });

        backend.submit(Plans.plan(RealBackends.request("refused", 2, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning()), ns));

        await().atMost(DEADLINE).until(() -> status("refused").map(j -> j.status().message() != null
                && j.status().message().contains("exceeded quota")).orElse(false));
        Job refused = status("refused").orElseThrow();
        assertThat(refused.status().phase()).isEqualTo(JobPhase.PENDING);
        assertThat(refused.status().message()).contains("one-pod");
        assertThat(workloads()).as("Kueue admitted both Jobs; the API server refused the pods").allSatisfy(workload ->
                assertThat(QueueWaits.waiting(workload)).isNull());
    }

    private int liveTrainers() {
        return (int) admin.pods().inNamespace(ns).withLabel(JobLabels.ROLE, Role.TRAINER.label()).list().getItems().stream()
                .filter(p -> p.getStatus() != null && !"Succeeded".equals(p.getStatus().getPhase())
                        && !"Failed".equals(p.getStatus().getPhase()) && p.getMetadata().getDeletionTimestamp() == null)
                .count();
    }

    private List<GenericKubernetesResource> workloads() {
        return admin.genericKubernetesResources(QueueWaits.API_VERSION, "Workload").inNamespace(ns).list().getItems();
    }

    private List<GenericKubernetesResource> workloadsOf(io.fabric8.kubernetes.api.model.HasMetadata owner) {
        return admin.genericKubernetesResources(QueueWaits.API_VERSION, "Workload").inNamespace(ns)
                .withLabel(KueueLabels.JOB_UID, owner.getMetadata().getUid()).list().getItems();
    }

    private static boolean inactive(GenericKubernetesResource workload) {
        return workload.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && Boolean.FALSE.equals(spec.get("active"));
    }

    @SuppressWarnings("unchecked")
    private static boolean finished(GenericKubernetesResource workload) {
        Object status = workload.getAdditionalProperties().get("status");
        Object conditions = status instanceof Map<?, ?> map ? map.get("conditions") : null;
        return conditions instanceof List<?> list && list.stream().map(c -> (Map<String, Object>) c)
                .anyMatch(c -> "Finished".equals(c.get("type")) && "True".equals(c.get("status")));
    }

    private io.fabric8.kubernetes.api.model.batch.v1.Job trainerJob(String job) {
        return Optional.ofNullable(trainerJobOrNull(job)).orElseThrow();
    }

    private io.fabric8.kubernetes.api.model.batch.v1.Job trainerJobOrNull(String job) {
        return admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob(job)).get();
    }

    private Optional<Job> status(String job) {
        return backend.find(new JobKey(ns, job));
    }

    private Integer position(String job) {
        return status(job).map(j -> j.status().queuePosition()).orElse(null);
    }

    private JobPhase phase(String job) {
        return status(job).map(j -> j.status().phase()).orElse(null);
    }

    private List<Pod> pods(String job) {
        return admin.pods().inNamespace(ns).withLabels(JobLabels.selector(job)).list().getItems();
    }

    private List<Pod> pods(String job, Role role) {
        return admin.pods().inNamespace(ns).withLabels(JobLabels.selector(job, role)).list().getItems();
    }
}
