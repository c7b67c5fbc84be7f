package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.JobSets;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.queue.QueueWaits;
import io.paddlejobs.backend.kubernetes.status.JobSetView;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.KueueCluster;
import io.paddlejobs.cluster.KueueQueues;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
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
 * Jobs in the {@code jobset} workload on a real control plane with the real JobSet controller (and Kueue's), kwok
 * playing the kubelets: JobSet holds the trainers back, ends the job, restarts it, and Kueue admits it as a whole.
 */
@Tag("cluster")
@ExtendWith(KueueCluster.class)
class JobSetRealClusterTest {

    /** Generous: the JobSet controller, the Job controller and kwok each take their turn on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofMinutes(3);
    private static final String QUEUE = "gpu-team";

    private final ControlPlane plane = KueueCluster.plane();
    private final KubernetesClient admin = plane.admin();
    private String ns;
    private MockCluster.Backend running;
    private KubernetesJobBackend backend;

    @BeforeEach
    void start() {
        ns = RealBackends.namespace(plane, "jobset");
        running = RealBackends.startSynced(plane, plane.adminToken(),
                MockCluster.settings(List.of(ns), "workload", "jobset", "resync", "2s"));
        backend = running.jobs();
    }

    @AfterEach
    void stop() {
        running.close();
    }

    @Test
    void theTrainersAreCreatedOnlyOnceThePserversAreReadyAndTheJobSucceedsWithThemWithoutItsPservers() {
        JobPlan plan = plan(RealBackends.request("ordered", 2, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.pserversNotReady(), FakeKubelet.trainersKeepRunning()));
        assertThat(backend.manifests(plan)).singleElement().satisfies(m -> assertThat(m).containsEntry("kind", "JobSet"));
        assertThat(plan.trainers().count()).isEqualTo(2);
        assertThat(plan.replicas()).extracting(r -> r.host())
                .contains("ordered-pserver-0-0.ordered", "ordered-trainer-0-1.ordered");
        backend.submit(plan);

        await().atMost(DEADLINE).until(() -> pods("ordered", Role.PSERVER).stream().anyMatch(JobSetRealClusterTest::running));
        await("JobSet sees its pserver Job active").atMost(DEADLINE).until(() -> replicatedJobStatus("ordered", "pserver", "active") == 1);
        assertThat(phase("ordered")).isEqualTo(JobPhase.PENDING);
        assertThat(pods("ordered", Role.TRAINER)).as("no trainer while the pserver is not ready").isEmpty();
        assertThat(admin.batch().v1().jobs().inNamespace(ns).withName("ordered-trainer-0").get()).isNull();

        Instant ready = Instant.now();
        FakeKubelet.passReadinessProbe(admin, pods("ordered", Role.PSERVER).get(0));
        await().atMost(DEADLINE).until(() -> pods("ordered", Role.TRAINER).stream().filter(JobSetRealClusterTest::running).count() == 2);
        assertThat(pods("ordered", Role.TRAINER)).allSatisfy(pod ->
                assertThat(Instant.parse(pod.getMetadata().getCreationTimestamp())).isAfterOrEqualTo(ready.minusSeconds(1)));
        await().atMost(DEADLINE).until(() -> phase("ordered") == JobPhase.RUNNING);

        pods("ordered", Role.TRAINER).forEach(pod -> FakeKubelet.exit(admin, pod, 0));
        await().atMost(DEADLINE).until(() -> phase("ordered") == JobPhase.SUCCEEDED);
        await("JobSet removed the pservers").atMost(DEADLINE).until(() -> pods("ordered", Role.PSERVER).isEmpty()
                && admin.batch().v1().jobs().inNamespace(ns).withName("ordered-pserver-0").get() == null);
        assertThat(phase("ordered")).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(backend.list(ns)).extracting(j -> j.plan().name()).containsExactly("ordered");
    }

    @Test
    void autoRunsJobSetsWhereTheApiServerServesThem() {
        try (var auto = RealBackends.startSynced(plane, plane.adminToken(),
                MockCluster.settings(List.of(ns), "workload", "auto", "resync", "2s"))) {
            JobPlan plan = plan(RealBackends.request("chosen", 1, "paddlepaddle/paddle:2.6.1", Map.of()));
            assertThat(auto.jobs().site().host(ns, "chosen", Role.TRAINER, 0)).isEqualTo("chosen-trainer-0-0.chosen");
            auto.jobs().submit(plan);
            assertThat(jobSetOrNull("chosen")).isNotNull();
            await().atMost(DEADLINE).until(() -> auto.jobs().find(new JobKey(ns, "chosen"))
                    .map(j -> j.status().phase() == JobPhase.SUCCEEDED).orElse(false));
        }
    }

    @Test
    void aTrainerFailureWithOneRestartToSpendRestartsTheJobSetOnce() {
        JobRequest request = JobRequests.named("again", "python train.py").pserverEntryPoint("python train.py")
                .image("paddlepaddle/paddle:2.6.1").trainers(1).pservers(1).labels(FakeKubelet.trainersKeepRunning())
                .maxRestarts(1).build();
        backend.submit(plan(request));
        await().atMost(DEADLINE).until(() -> liveTrainers("again", 0).size() == 1);

        FakeKubelet.exit(admin, liveTrainers("again", 0).get(0), 1);
        await("JobSet restarted it").atMost(DEADLINE).until(() -> JobSetView.restarts(jobSet("again")) == 1
                && liveTrainers("again", 1).size() == 1);
        await().atMost(DEADLINE).until(() -> status("again").map(j -> j.status().phase() == JobPhase.RUNNING
                && j.status().restarts() == 1).orElse(false));

        FakeKubelet.exit(admin, liveTrainers("again", 1).get(0), 0);
        await().atMost(DEADLINE).until(() -> phase("again") == JobPhase.SUCCEEDED);
        assertThat(status("again").orElseThrow().status().restarts()).isEqualTo(1);
        assertThat(JobSetView.restarts(jobSet("again"))).as("restarted once only").isEqualTo(1);
    }

    @Test
    void aPserverThatCrashesFailsTheJobWithItsExitCodeAndJobSetStopsTheTrainers() {
        backend.submit(plan(RealBackends.request("lost", 2, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.pserversCrashWith(137), FakeKubelet.trainersKeepRunning())));

        await().atMost(DEADLINE).until(() -> phase("lost") == JobPhase.FAILED && pods("lost", Role.TRAINER).isEmpty());

        var status = status("lost").orElseThrow().status();
        assertThat(status.message()).startsWith("pserver-0 failed: killed by signal 9");
        assertThat(status.reason()).isNotBlank();
        assertThat(pods("lost", Role.PSERVER)).as("the pserver is not brought back")
                .singleElement().satisfies(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Failed"));
        assertThat(JobSetView.restarts(jobSet("lost"))).isZero();
    }

    @Test
    void aCancelledJobSetStopsItsPodsAndADeleteRemovesIt() {
        backend.submit(plan(RealBackends.request("cancelled", 1, "paddlepaddle/paddle:2.6.1", FakeKubelet.trainersKeepRunning())));
        await().atMost(DEADLINE).until(() -> phase("cancelled") == JobPhase.RUNNING);

        assertThat(backend.cancel(new JobKey(ns, "cancelled")).orElseThrow().status().phase()).isEqualTo(JobPhase.CANCELLED);
        await().atMost(DEADLINE).until(() -> phase("cancelled") == JobPhase.CANCELLED && pods("cancelled").isEmpty());
        assertThat(spec(jobSet("cancelled"))).containsEntry("suspend", true);

        assertThat(backend.delete(new JobKey(ns, "cancelled"))).isTrue();
        await().atMost(DEADLINE).until(() -> jobSetOrNull("cancelled") == null && status("cancelled").isEmpty()
                && admin.batch().v1().jobs().inNamespace(ns).list().getItems().isEmpty());
    }

    @Test
    void twoFourGpuJobSetsInASixGpuQueueRunOneAfterTheOtherAndTheSecondSaysWhyItWaits() {
        queued();
        Instant submitted = Instant.now();
        backend.submit(plan(RealBackends.gpuRequest("first", 4, FakeKubelet.trainersKeepRunning())));
        await().atMost(DEADLINE).until(() -> phase("first") == JobPhase.RUNNING);
        System.out.printf("Kueue, JobSet: submit to Running of a queued 4-GPU job: %d ms%n",
                Duration.between(submitted, Instant.now()).toMillis());
        backend.submit(plan(RealBackends.gpuRequest("second", 4, Map.of())));

        AtomicInteger mostTrainersAtOnce = new AtomicInteger();
        await().atMost(DEADLINE).until(() -> {
            mostTrainersAtOnce.accumulateAndGet(liveGpuTrainers(), Math::max);
            return status("second").map(s -> PodStates.QUEUED.equals(s.status().reason())
                    && s.status().message().contains("insufficient unused quota for nvidia.com/gpu")).orElse(false);
        });
        Job waiting = status("second").orElseThrow();
        assertThat(waiting.status().phase()).isEqualTo(JobPhase.PENDING);
        assertThat(waiting.status().message()).contains("waiting in queue " + QUEUE);
        assertThat(pods("second")).as("no partial start: nothing of the second job runs").isEmpty();
        assertThat(spec(jobSet("second"))).as("Kueue holds the whole JobSet").containsEntry("suspend", true);

        FakeKubelet.exit(admin, pods("first", Role.TRAINER).get(0), 0);
        await().atMost(DEADLINE).until(() -> {
            mostTrainersAtOnce.accumulateAndGet(liveGpuTrainers(), Math::max);
            return phase("first") == JobPhase.SUCCEEDED && phase("second") == JobPhase.SUCCEEDED;
        });
        assertThat(mostTrainersAtOnce.get()).as("4-GPU trainers running at once under a 6-GPU quota").isEqualTo(1);
    }

    @Test
    void aCancelledQueuedJobSetIsStoppedThroughItsWorkloadAndFreesItsQuota() {
        queued();
        backend.submit(plan(RealBackends.gpuRequest("cancelled", 4, FakeKubelet.trainersKeepRunning())));
        await().atMost(DEADLINE).until(() -> phase("cancelled") == JobPhase.RUNNING);

        backend.cancel(new JobKey(ns, "cancelled"));

        await().atMost(DEADLINE).until(() -> phase("cancelled") == JobPhase.CANCELLED && pods("cancelled").isEmpty());
        assertThat(workloads()).singleElement().satisfies(w -> assertThat(spec(w)).containsEntry("active", false));
        assertThat(spec(jobSet("cancelled"))).as("Kueue suspended it, and keeps it so").containsEntry("suspend", true);
        backend.submit(plan(RealBackends.gpuRequest("next", 4, Map.of())));
        await("the quota is free again").atMost(DEADLINE).until(() -> phase("next") == JobPhase.SUCCEEDED);
        assertThat(phase("cancelled")).isEqualTo(JobPhase.CANCELLED);
    }

    /** As with the {@code jobs} workload: a JobSet cancelled while it waits in the queue never runs. */
    @Test
    void aJobSetCancelledWhileItWaitsInTheQueueNeverRunsAndTheJobBehindItGoesFirst() {
        queued();
        backend.submit(plan(RealBackends.gpuRequest("ahead", 4, FakeKubelet.trainersKeepRunning())));
        await().atMost(DEADLINE).until(() -> phase("ahead") == JobPhase.RUNNING);
        backend.submit(plan(RealBackends.gpuRequest("waits", 4, Map.of())));
        await().atMost(DEADLINE).until(() -> status("waits").map(s -> PodStates.QUEUED.equals(s.status().reason()))
                .orElse(false));

        assertThat(backend.cancel(new JobKey(ns, "waits")).orElseThrow().status().phase()).isEqualTo(JobPhase.CANCELLED);

        backend.submit(plan(RealBackends.gpuRequest("behind", 4, Map.of())));
        FakeKubelet.exit(admin, pods("ahead", Role.TRAINER).get(0), 0);
        await().atMost(DEADLINE).until(() -> phase("behind") == JobPhase.SUCCEEDED);
        assertThat(admin.batch().v1().jobs().inNamespace(ns).withLabel(JobSets.NAME_LABEL, "waits").list().getItems())
                .as("none of its child Jobs ever ran, though it was ahead of the job that did")
                .allMatch(child -> child.getStatus() == null || child.getStatus().getStartTime() == null);
        assertThat(pods("waits")).isEmpty();
        assertThat(spec(jobSet("waits"))).containsEntry("suspend", true);
        assertThat(phase("waits")).isEqualTo(JobPhase.CANCELLED);
    }

    /** A ClusterQueue of 6 GPUs, and the backend restarted with its LocalQueue as the namespace's queue. */
    private void queued() {
        KueueQueues.create(admin, "cq-" + ns, Map.of("cpu", "64", "memory", "256Gi", "nvidia.com/gpu", "6"), ns, QUEUE);
        running.close();
        running = RealBackends.startSynced(plane, plane.adminToken(), MockCluster.settings(List.of(ns), "workload", "jobset",
                "queues." + ns, QUEUE, "resync", "2s"));
        backend = running.jobs();
    }

    private List<GenericKubernetesResource> workloads() {
        return admin.genericKubernetesResources(QueueWaits.API_VERSION, "Workload").inNamespace(ns).list().getItems();
    }

    private JobPlan plan(JobRequest request) {
        return Plans.planAsJobSet(request, ns);
    }

    private int liveGpuTrainers() {
        return (int) admin.pods().inNamespace(ns).withLabel(JobLabels.ROLE, Role.TRAINER.label()).list().getItems().stream()
                .filter(JobSetRealClusterTest::live).count();
    }

    private List<Pod> liveTrainers(String job, int restart) {
        return pods(job, Role.TRAINER).stream().filter(JobSetRealClusterTest::running)
                .filter(p -> Integer.toString(restart).equals(p.getMetadata().getLabels().get(JobSets.RESTARTS_LABEL)))
                .toList();
    }

    private static boolean live(Pod pod) {
        return pod.getStatus() != null && !"Succeeded".equals(pod.getStatus().getPhase())
                && !"Failed".equals(pod.getStatus().getPhase()) && pod.getMetadata().getDeletionTimestamp() == null;
    }

    private static boolean running(Pod pod) {
        return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())
                && pod.getMetadata().getDeletionTimestamp() == null;
    }

    private GenericKubernetesResource jobSet(String job) {
        return Optional.ofNullable(jobSetOrNull(job)).orElseThrow();
    }

    private GenericKubernetesResource jobSetOrNull(String job) {
        return admin.genericKubernetesResources(JobSets.API_VERSION, JobSets.KIND).inNamespace(ns).withName(job).get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource jobSet) {
        return new HashMap<>((Map<String, Object>) jobSet.getAdditionalProperties().get("spec"));
    }

    @SuppressWarnings("unchecked")
    private int replicatedJobStatus(String job, String replicatedJob, String field) {
        GenericKubernetesResource jobSet = jobSetOrNull(job);
        Object status = jobSet == null ? null : jobSet.getAdditionalProperties().get("status");
        Object all = status instanceof Map<?, ?> map ? map.get("replicatedJobsStatus") : null;
        if (!(all instanceof List<?> list)) {
            return -1;
        }
        return list.stream().map(s -> (Map<String, Object>) s).filter(s -> replicatedJob.equals(s.get("name")))
                .map(s -> s.get(field) instanceof Number n ? n.intValue() : 0).findFirst().orElse(-1);
    }

    private Optional<Job> status(String job) {
        return backend.find(new JobKey(ns, job));
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
