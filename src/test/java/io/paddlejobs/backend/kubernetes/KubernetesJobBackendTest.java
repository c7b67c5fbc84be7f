package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.ClusterRefusedException;
import io.paddlejobs.backend.kubernetes.cluster.DataClaimUnusableException;
import io.paddlejobs.backend.kubernetes.cluster.ForeignObjectException;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The backend against fabric8's mock API server over real HTTP; each test works in a namespace of its own. */
class KubernetesJobBackendTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private static MockCluster cluster;
    private static ClusterWriter write;
    private static MockCluster.Backend running;
    private static KubernetesJobBackend backend;

    private String ns;
    private JobPlan plan;
    private JobKey key;

    @BeforeAll
    static void startCluster() {
        cluster = new MockCluster();
        write = new ClusterWriter(cluster.admin);
        running = cluster.startBackend();
        backend = running.jobs();
        await().atMost(DEADLINE).until(() -> running.cache().synced());
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @BeforeEach
    void namespace() {
        ns = "t" + NAMESPACES.incrementAndGet();
        plan = Plans.plan(Plans.request("mnist", 2), ns);
        key = new JobKey(ns, "mnist");
        cluster.provideDataClaim(ns);
    }

    private Job awaitPhase(JobPhase phase) {
        await().atMost(DEADLINE).until(() -> backend.find(key).map(j -> j.status().phase()).orElse(null) == phase);
        return backend.find(key).orElseThrow();
    }

    private void awaitPserversStopped() {
        await().atMost(DEADLINE).until(() -> Boolean.TRUE.equals(write.pserverJob(ns, "mnist").getSpec().getSuspend()));
    }

    /**
     * On a mock server of its own: closing a second backend's watches mid-class stalled this class's
     * mock server for tens of seconds on a loaded machine, and the next cases' requests timed out.
     */
    @Test
    void autoRunsJobsWhereTheApiServerServesNoJobSets() {
        try (var own = new MockCluster()) {
            own.provideDataClaim(ns);
            var auto = own.startBackend(MockCluster.settings(List.of(), "workload", "auto"));
            assertThat(auto.jobs().site().host(ns, "mnist", Role.TRAINER, 0)).isEqualTo("mnist-trainer-0.mnist");
            assertThat(auto.jobs().manifests(plan)).extracting(m -> m.get("kind")).containsExactly("Job", "Service", "Job");
        }
    }

    @Test
    void submitCreatesTheTrainerJobAndTheObjectsItOwns() {
        Job submitted = backend.submit(plan);

        assertThat(submitted.status().phase()).isEqualTo(JobPhase.PENDING);
        var trainerJob = write.trainerJob(ns, "mnist");
        var service = cluster.admin.services().inNamespace(ns).withName("mnist").get();
        var set = write.pserverJob(ns, "mnist");
        assertThat(trainerJob.getSpec().getCompletions()).isEqualTo(2);
        assertThat(trainerJob.getSpec().getSuspend()).as("held until the pservers are ready").isTrue();
        assertThat(List.of(service.getMetadata(), set.getMetadata())).allSatisfy(meta ->
                assertThat(meta.getOwnerReferences()).singleElement()
                        .satisfies(ref -> assertThat(ref.getUid()).isEqualTo(trainerJob.getMetadata().getUid())));
    }

    @Test
    void aCollectiveJobIsSubmittedFoundAndCancelledWithoutAnyPserverObject() {
        var collective = Plans.plan(Plans.collectiveRequest("allreduce", 2), ns);
        var allreduce = new JobKey(ns, "allreduce");
        backend.submit(collective);
        await().atMost(DEADLINE).until(() -> backend.find(allreduce).isPresent());

        assertThat(write.trainerJob(ns, "allreduce").getSpec().getCompletions()).isEqualTo(2);
        assertThat(write.trainerJob(ns, "allreduce").getSpec().getSuspend())
                .as("no pservers to wait for: the trainers start at once").isNotEqualTo(Boolean.TRUE);
        assertThat(cluster.admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob("allreduce")).get())
                .as("no pserver Job").isNull();
        assertThat(backend.find(allreduce).orElseThrow().plan()).isEqualTo(collective);
        Job cancelled = backend.cancel(allreduce).orElseThrow();
        assertThat(cancelled.status().phase()).isEqualTo(JobPhase.CANCELLED);
    }

    @Test
    void aClaimThatAttachesToOneNodeOnlyIsRefusedAtSubmitAndDryRunWithNothingCreated() {
        cluster.provideDataClaim(ns, "ReadWriteOnce");

        assertThatThrownBy(() -> backend.submit(plan)).isInstanceOf(DataClaimUnusableException.class)
                .satisfies(e -> assertThat(((DataClaimUnusableException) e).getBody().getDetail())
                        .contains("[ReadWriteOnce]", "ReadWriteMany", "paddle-data"));
        assertThatThrownBy(() -> backend.manifests(plan)).isInstanceOf(DataClaimUnusableException.class);
        assertThat(write.trainerJob(ns, "mnist")).isNull();
    }

    @Test
    void aClaimSharedReadOnlyIsMountedReadOnly() {
        cluster.provideDataClaim(ns, "ReadOnlyMany");

        backend.submit(plan);

        assertThat(write.trainerJob(ns, "mnist").getSpec().getTemplate().getSpec().getVolumes())
                .filteredOn(v -> v.getPersistentVolumeClaim() != null).singleElement()
                .satisfies(v -> assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue());
    }

    @Test
    void dryRunManifestsAreTheObjectsASubmitCreates() {
        var manifests = backend.manifests(plan);
        backend.submit(plan);
        var created = Manifests.asMap(write.pserverJob(ns, "mnist"));
        assertThat(manifests).extracting(m -> m.get("kind")).containsExactly("Job", "Service", "Job");
        assertThat(manifests.get(2).get("spec")).isEqualTo(created.get("spec"));
    }

    @Test
    void aSubmittedJobIsFoundWithItsPlanRecoveredFromTheCluster() {
        backend.submit(plan);
        Job found = awaitPhase(JobPhase.PENDING);
        assertThat(found.plan()).isEqualTo(plan);
        assertThat(backend.list(ns)).extracting(j -> j.plan().name()).containsExactly("mnist");
    }

    @Test
    void readingStatusesCallsTheApiServerNoMore() {
        backend.submit(plan);
        awaitPhase(JobPhase.PENDING);
        int before = cluster.server.getRequestCount();
        for (int i = 0; i < 100; i++) {
            assertThat(backend.find(key)).isPresent();
            assertThat(backend.list(ns)).hasSize(1);
        }
        // 200 reads that asked the API server would add 200 requests; an informer's watch reconnecting during
        // the loop (its own schedule, on its own thread) adds one or two.
        assertThat(cluster.server.getRequestCount()).as("requests during 200 reads").isLessThan(before + 10);
    }

    @Test
    void statusFollowsThePodsAndTheTrainerJob() {
        backend.submit(plan);
        write.put(Pods.unschedulable(pod(Role.PSERVER, 0), "0/3 nodes are available: 3 Insufficient cpu."));
        Job pending = awaitPhase(JobPhase.PENDING);
        await().atMost(DEADLINE).until(() -> "Unschedulable".equals(backend.find(key).orElseThrow().status().reason()));

        for (int i = 0; i < 2; i++) {
            write.put(Pods.running(pod(Role.PSERVER, i)));
            write.put(Pods.running(pod(Role.TRAINER, i)));
        }
        Job runningJob = awaitPhase(JobPhase.RUNNING);
        assertThat(runningJob.status().trainers().running()).isEqualTo(2);
        assertThat(pending.status().replicas()).hasSize(4);
    }

    @Test
    void whenTheTrainerJobFailsThePserversAreStoppedAndTheFailureExplained() {
        backend.submit(plan);
        write.put(Pods.failed(pod(Role.TRAINER, 1), 137, "OOMKilled"));
        write.updateTrainerJob(ns, "mnist", job -> Pods.withCondition(job, "Failed"));

        Job failed = awaitPhase(JobPhase.FAILED);
        awaitPserversStopped();
        assertThat(failed.status().message()).startsWith("trainer-1 failed: killed for using more memory");
    }

    @Test
    void aServiceStartedLaterStopsThePserversOfJobsThatEndedWhileItWasAway() {
        backend.submit(plan);
        write.updateTrainerJob(ns, "mnist", job -> Pods.withCondition(job, "Complete"));
        awaitPserversStopped();
        // Undo, as if the job had ended while no replica of the service was running.
        cluster.admin.batch().v1().jobs().inNamespace(ns).withName("mnist-pserver")
                .edit(j -> { j.getSpec().setSuspend(false); return j; });

        MockCluster.Backend restarted = cluster.startBackend();
        restarted.runtime().reconciler().accept(key);
        await().atMost(DEADLINE).until(() -> restarted.cache().synced());
        awaitPserversStopped();
    }

    @Test
    void cancelSuspendsTheTrainersStopsThePserversAndKeepsTheJob() {
        backend.submit(plan);
        awaitPhase(JobPhase.PENDING);

        Job cancelled = backend.cancel(key).orElseThrow();

        assertThat(cancelled.status().phase()).isEqualTo(JobPhase.CANCELLED);
        assertThat(cancelled.status().replicas()).extracting(r -> r.state()).containsOnly(ReplicaState.STOPPED);
        assertThat(write.trainerJob(ns, "mnist").getSpec().getSuspend()).isTrue();
        assertThat(write.pserverJob(ns, "mnist").getSpec().getSuspend()).isTrue();
        assertThat(awaitPhase(JobPhase.CANCELLED).status().finishedAt()).isNotNull();
    }

    /** A sweep's trial stopped early is cancelled with a reason of its own, which its job keeps as the cluster holds it. */
    @Test
    void aCancelWithAReasonOfItsOwnIsKeptOnTheTrainerJobAndIsTheJobsReason() {
        backend.submit(plan);
        awaitPhase(JobPhase.PENDING);

        Job stopped = backend.cancel(key, "EarlyStopped", "stopped early: loss is worse than the median").orElseThrow();

        assertThat(stopped.status().phase()).isEqualTo(JobPhase.CANCELLED);
        assertThat(stopped.status().reason()).isEqualTo("EarlyStopped");
        assertThat(write.trainerJob(ns, "mnist").getMetadata().getAnnotations())
                .containsEntry(JobLabels.CANCELLED_REASON_ANNOTATION, "EarlyStopped")
                .containsEntry(JobLabels.CANCELLED_MESSAGE_ANNOTATION, "stopped early: loss is worse than the median");
        Job seen = awaitPhase(JobPhase.CANCELLED);
        assertThat(seen.status().reason()).isEqualTo("EarlyStopped");
        assertThat(seen.status().message()).isEqualTo("stopped early: loss is worse than the median");
    }

    @Test
    void cancellingAFinishedJobChangesNothing() {
        backend.submit(plan);
        write.updateTrainerJob(ns, "mnist", job -> Pods.withCondition(job, "Complete"));
        awaitPhase(JobPhase.SUCCEEDED);

        assertThat(backend.cancel(key).orElseThrow().status().phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(write.trainerJob(ns, "mnist").getMetadata().getAnnotations())
                .doesNotContainKey(JobLabels.CANCELLED_AT_ANNOTATION);
    }

    @Test
    void deleteRemovesEveryObjectOfTheJob() {
        backend.submit(plan);
        awaitPhase(JobPhase.PENDING);

        assertThat(backend.delete(key)).isTrue();

        assertThat(write.trainerJob(ns, "mnist")).isNull();
        assertThat(write.pserverJob(ns, "mnist")).isNull();
        assertThat(cluster.admin.services().inNamespace(ns).withName("mnist").get()).isNull();
        await().atMost(DEADLINE).until(() -> backend.find(key).isEmpty());
        assertThat(backend.delete(key)).isFalse();
    }

    @Test
    void deleteLeavesASameNamedObjectOfSomeoneElseAlone() {
        cluster.admin.services().inNamespace(ns).resource(foreignService()).create();
        assertThat(backend.delete(key)).isFalse();
        assertThat(cluster.admin.services().inNamespace(ns).withName("mnist").get()).isNotNull();
    }

    @Test
    void submitMeetingSomeoneElsesObjectRemovesWhatItCreatedAndSaysWhichObject() {
        cluster.admin.services().inNamespace(ns).resource(foreignService()).create();

        assertThatThrownBy(() -> backend.submit(plan)).isInstanceOf(ForeignObjectException.class)
                .satisfies(e -> assertThat(((ForeignObjectException) e).getBody().getDetail()).contains("Service", "'mnist'"));
        assertThat(write.trainerJob(ns, "mnist")).isNull();
        assertThat(write.pserverJob(ns, "mnist")).isNull();
    }

    @Test
    void aFailedCreateRemovesWhatWasCreatedAndReportsABadGateway() {
        // The trainer Job is created first, then the Service it owns.
        cluster.server.expect().post().withPath("/api/v1/namespaces/" + ns + "/services")
                .andReturn(500, new StatusBuilder().withCode(500).withMessage("etcd is sad").build()).once();

        assertThatThrownBy(() -> backend.submit(plan)).isInstanceOf(ClusterRefusedException.class)
                .satisfies(e -> assertThat(((ClusterRefusedException) e).getStatusCode().value()).isEqualTo(502))
                .satisfies(e -> assertThat(((ClusterRefusedException) e).getBody().getDetail()).contains("etcd is sad"));
        assertThat(write.trainerJob(ns, "mnist")).isNull();
        assertThat(cluster.admin.services().inNamespace(ns).withName("mnist").get()).isNull();
        // Created side by side with the Service, so it was made, and must be gone again.
        assertThat(write.pserverJob(ns, "mnist")).isNull();
    }

    @Test
    void aForeignObjectMetBesideTheServiceRemovesTheServiceAndTheTrainerJob() {
        cluster.admin.batch().v1().jobs().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder()
                .withNewMetadata().withName("mnist-pserver").withNamespace(ns).addToLabels("app", "someone-else").endMetadata()
                .withNewSpec().withNewTemplate().withNewSpec().addNewContainer().withName("c").withImage("busybox")
                .endContainer().withRestartPolicy("Never").endSpec().endTemplate().endSpec().build()).create();

        assertThatThrownBy(() -> backend.submit(plan)).isInstanceOf(ForeignObjectException.class)
                .satisfies(e -> assertThat(((ForeignObjectException) e).getBody().getDetail()).contains("Job", "'mnist-pserver'"));
        assertThat(write.trainerJob(ns, "mnist")).isNull();
        assertThat(cluster.admin.services().inNamespace(ns).withName("mnist").get()).isNull();
        assertThat(write.pserverJob(ns, "mnist").getMetadata().getLabels()).containsEntry("app", "someone-else");
    }

    @Test
    void resubmittingAnInterruptedSubmitCompletesItsObjects() {
        // The first submit created the trainer Job and its Service, then the service went away.
        var desired = Manifests.desired(plan, Settings.defaults(KubernetesProperties.class));
        var job = cluster.admin.resource(desired.trainerJob()).create();
        cluster.admin.resource(Manifests.ownedBy(job, desired.service())).create();

        assertThatThrownBy(() -> backend.submit(plan)).isInstanceOf(JobAlreadyExistsException.class);

        assertThat(write.pserverJob(ns, "mnist").getMetadata().getOwnerReferences())
                .singleElement().satisfies(ref -> assertThat(ref.getUid()).isEqualTo(job.getMetadata().getUid()));
        awaitPhase(JobPhase.PENDING);
    }

    @Test
    void logsOfAPserverAreReadFromItsPod() throws Exception {
        backend.submit(plan);
        awaitPhase(JobPhase.PENDING);
        cluster.server.expect().get()
                .withPath("/api/v1/namespaces/" + ns + "/pods/mnist-pserver-1/log?pretty=false&container=paddle&tailLines=2")
                .andReturn(200, "line 9\nline 10\n").once();

        var out = new ByteArrayOutputStream();
        assertThat(backend.writeLogs(key, Role.PSERVER, 1, 2, false, out)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("line 9\nline 10\n");
    }

    @Test
    void logsOfATrainerAreReadFromThePodOfItsIndex() throws Exception {
        backend.submit(plan);
        write.put(Pods.running(pod(Role.TRAINER, 1)));
        await().atMost(DEADLINE).until(() -> backend.find(key).orElseThrow().status().trainers().running() == 1);
        cluster.server.expect().get()
                .withPath("/api/v1/namespaces/" + ns + "/pods/mnist-trainer-1-x7k2p/log?pretty=false&container=paddle")
                .andReturn(200, "epoch 1\n").once();

        var out = new ByteArrayOutputStream();
        assertThat(backend.writeLogs(key, Role.TRAINER, 1, null, false, out)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("epoch 1\n");
    }

    @Test
    void followingALogStreamsItUntilThePodsLogEnds() throws Exception {
        backend.submit(plan);
        awaitPhase(JobPhase.PENDING);
        cluster.server.expect().get()
                .withPath("/api/v1/namespaces/" + ns + "/pods/mnist-pserver-0/log?pretty=false&container=paddle&follow=true")
                .andReturn(200, "serving\nstopped\n").once();

        var out = new ByteArrayOutputStream();
        assertThat(backend.writeLogs(key, Role.PSERVER, 0, null, true, out)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("serving\nstopped\n");
    }

    private io.fabric8.kubernetes.api.model.Pod pod(Role role, int index) {
        var pod = Pods.of("mnist", role, index);
        pod.getMetadata().setNamespace(ns);
        return pod;
    }

    private io.fabric8.kubernetes.api.model.Service foreignService() {
        return new ServiceBuilder().withNewMetadata().withName("mnist").withNamespace(ns)
                .addToLabels("app", "someone-else").endMetadata()
                .withNewSpec().addNewPort().withPort(80).endPort().endSpec().build();
    }
}
