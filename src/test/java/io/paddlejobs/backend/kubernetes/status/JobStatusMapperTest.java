package io.paddlejobs.backend.kubernetes.status;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.Pods;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobStatusMapperTest {

    private final JobPlan plan = Plans.plan("mnist", 2);
    private final Job created = new JobBuilder(Manifests.desired(plan, Settings.defaults(KubernetesProperties.class)).trainerJob())
            .editMetadata().withCreationTimestamp(Pods.T0).endMetadata().build();

    private JobStatus map(Job job, Pod... pods) {
        return JobStatusMapper.map(plan, new ObservedJob(job, null, List.of(pods)));
    }

    private static Pod pserver(int i) {
        return Pods.of("mnist", Role.PSERVER, i);
    }

    private static Pod trainer(int i) {
        return Pods.of("mnist", Role.TRAINER, i);
    }

    private static ReplicaStatus replica(JobStatus status, String id) {
        return status.replicas().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aJobWithNoPodsYetIsPendingAndSaysItIsStarting() {
        JobStatus status = map(created);
        assertThat(status.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.reason()).isEqualTo("Starting");
        assertThat(status.createdAt()).isEqualTo(Instant.parse(Pods.T0));
        assertThat(status.pservers()).isEqualTo(new RoleCounts(2, 2, 0, 0, 0));
        assertThat(status.replicas()).extracting(ReplicaStatus::host)
                .containsExactly("mnist-pserver-0.mnist", "mnist-pserver-1.mnist", "mnist-trainer-0.mnist", "mnist-trainer-1.mnist");
    }

    @Test
    void heldTrainersSayTheyWaitForThePserversToBeReady() {
        JobStatus status = map(created, Pods.ready(Pods.running(pserver(0))), Pods.ready(Pods.running(pserver(1))));
        assertThat(status.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.reason()).isEqualTo("WaitingForPservers");
        assertThat(replica(status, "trainer-0").reason()).isEqualTo("waiting for every pserver to be ready");
    }

    @Test
    void anInitContainerThatCannotPullItsImageIsTheReasonNotPodInitializing() {
        Pod stuck = new io.fabric8.kubernetes.api.model.PodBuilder(Pods.waiting(trainer(0), "PodInitializing", null))
                .editStatus().addNewInitContainerStatus().withName("wait-for-pservers").withImage("busybox:1.36")
                .withNewState().withNewWaiting().withReason("ImagePullBackOff")
                .withMessage("Back-off pulling image \"busybox:1.36\"").endWaiting().endState()
                .endInitContainerStatus().endStatus().build();
        JobStatus status = map(created, Pods.running(pserver(0)), Pods.running(pserver(1)), stuck);
        assertThat(status.reason()).isEqualTo("ImagePullBackOff");
        assertThat(status.message()).isEqualTo(
                "trainer-0: the init container cannot pull image 'busybox:1.36': Back-off pulling image \"busybox:1.36\"");
    }

    @Test
    void aPodCreatingItsContainersSaysSoAndLeavesRoomForTheClustersExplanation() {
        JobStatus status = map(created, Pods.waiting(pserver(0), "ContainerCreating", null), Pods.running(pserver(1)));
        assertThat(status.reason()).isEqualTo("ContainerCreating");
        assertThat(status.message()).contains("creating its containers");

        var explained = JobStatusMapper.map(plan, new ObservedJob(created, null, List.of(
                Pods.waiting(pserver(0), "ContainerCreating", null), Pods.running(pserver(1))),
                new ObservedJob.Explanation("FailedAttachVolume", "Pod mnist-pserver-0-x7k2p",
                        "Multi-Attach error for volume \"pvc-1\" Volume is already used by pod(s) mnist-trainer-0")));
        assertThat(explained.reason()).isEqualTo("FailedAttachVolume");
        assertThat(explained.message()).startsWith("Pod mnist-pserver-0-x7k2p: Multi-Attach error");
    }

    @Test
    void anUnschedulablePodMakesTheJobPendingWithTheSchedulersMessage() {
        JobStatus status = map(created, Pods.running(pserver(0)),
                Pods.unschedulable(pserver(1), "0/3 nodes are available: 3 Insufficient cpu."));
        assertThat(status.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.reason()).isEqualTo("Unschedulable");
        assertThat(status.message()).isEqualTo("pserver-1: cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.");
    }

    @Test
    void anImagePullFailureNamesTheImage() {
        JobStatus status = map(created, Pods.waiting(trainer(0), "ImagePullBackOff", "Back-off pulling image"),
                Pods.running(pserver(0)), Pods.running(pserver(1)));
        assertThat(status.reason()).isEqualTo("ImagePullBackOff");
        assertThat(status.message()).contains("trainer-0", "cannot pull image 'example/paddle:gpu'", "Back-off");
    }

    @Test
    void trainersWaitingForPserversSayWhatTheyWaitFor() {
        JobStatus status = map(created, Pods.running(pserver(0)), Pods.running(pserver(1)),
                Pods.waitingForPservers(trainer(0)), Pods.waitingForPservers(trainer(1)));
        assertThat(status.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.reason()).isEqualTo("WaitingForPservers");
    }

    @Test
    void aJobRunsOnceEveryReplicaRuns() {
        JobStatus status = map(created, Pods.running(pserver(0)), Pods.running(pserver(1)),
                Pods.running(trainer(0)), Pods.running(trainer(1)));
        assertThat(status.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(status.reason()).isNull();
        assertThat(status.startedAt()).isEqualTo(Instant.parse(Pods.T0));
        assertThat(status.trainers()).isEqualTo(new RoleCounts(2, 0, 2, 0, 0));
    }

    @Test
    void aCrashedPserverFailsTheJobWithItsExitCodeEvenWhileTrainersRun() {
        JobStatus status = map(created, Pods.failed(pserver(0), 139, "Error"), Pods.running(pserver(1)),
                Pods.running(trainer(0)), Pods.running(trainer(1)));
        assertThat(status.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(status.reason()).isEqualTo("ReplicaFailed");
        assertThat(status.message()).startsWith("pserver-0 failed: killed by signal 11 (SIGSEGV: the program crashed)")
                .contains("not restarted");
        ReplicaStatus pserver = replica(status, "pserver-0");
        assertThat(pserver.state()).isEqualTo(ReplicaState.FAILED);
        assertThat(pserver.exitCode()).isEqualTo(139);
    }

    @Test
    void aJobSucceedsWhenTheTrainerJobCompletesAndItsPserversAreStopped() {
        JobStatus status = map(Pods.withCondition(created, "Complete"), Pods.running(pserver(0)),
                Pods.succeeded(trainer(0)), Pods.succeeded(trainer(1)));
        assertThat(status.phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(status.finishedAt()).isEqualTo(Instant.parse(Pods.T1));
        assertThat(replica(status, "pserver-0").state()).isEqualTo(ReplicaState.STOPPED);
        assertThat(replica(status, "pserver-1").state()).isEqualTo(ReplicaState.STOPPED);
        assertThat(status.trainers()).isEqualTo(new RoleCounts(2, 0, 0, 2, 0));
        assertThat(replica(status, "trainer-1").exitCode()).isZero();
    }

    @Test
    void anOutOfMemoryTrainerFailsTheJobWithAnActionableMessage() {
        JobStatus status = map(Pods.withCondition(created, "Failed"), Pods.running(pserver(0)), Pods.running(pserver(1)),
                Pods.running(trainer(0)), Pods.failed(trainer(1), 137, "OOMKilled"));
        assertThat(status.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(status.reason()).isEqualTo("OOMKilled");
        assertThat(status.message()).startsWith("trainer-1 failed: killed for using more memory than it was given (out of memory, exit code 137)").contains("ask for more memory");
        assertThat(replica(status, "trainer-1").exitCode()).isEqualTo(137);
        assertThat(replica(status, "trainer-0").state()).isEqualTo(ReplicaState.STOPPED);
    }

    @Test
    void aFailedTrainerFailsTheJobBeforeTheJobControllerSaysSo() {
        JobStatus status = map(created, Pods.failed(trainer(0), 1, "Error"));
        assertThat(status.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(status.reason()).isEqualTo("ReplicaFailed");
        assertThat(status.message()).isEqualTo("trainer-0 failed: exited with code 1 (the program reported an error; see its log)");
        assertThat(status.finishedAt()).isEqualTo(Instant.parse(Pods.T1));
    }

    @Test
    void aFailedTrainersLastWordsComeWithItsPodNotWithAnotherApiCall() {
        JobStatus status = map(created, Pods.failedSaying(trainer(0), 1,
                "step 3\nTraceback (most recent call last):\n  File \"train.py\", line 9\nKeyError: 'label'\n"));
        assertThat(status.message()).isEqualTo("trainer-0 failed: exited with code 1: \"KeyError: 'label'\"");
    }

    @Test
    void aTrainerThatGaveUpOnThePserversSaysSo() {
        JobStatus status = map(Pods.withCondition(created, "Failed"), Pods.gaveUpWaitingForPservers(trainer(0)));
        assertThat(status.reason()).isEqualTo("PserversUnreachable");
        assertThat(status.message()).contains("trainer-0", "pservers",
                "(pserver job-pserver-1.job:7164 did not accept connections within 600s)");
    }

    @Test
    void aFailedJobWithoutPodsExplainsWithTheJobCondition() {
        JobStatus status = map(Pods.withCondition(created, "Failed"));
        assertThat(status.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(status.reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(status.startedAt()).isEqualTo(Instant.parse(Pods.T0));
    }

    @Test
    void aCancelledJobIsCancelledAndEveryReplicaStopped() {
        JobStatus status = map(Pods.cancelled(created), Pods.running(pserver(0)));
        assertThat(status.phase()).isEqualTo(JobPhase.CANCELLED);
        assertThat(status.finishedAt()).isEqualTo(Instant.parse(Pods.T1));
        assertThat(status.replicas()).extracting(ReplicaStatus::state).containsOnly(ReplicaState.STOPPED);
    }

    @Test
    void theNewestPodOfAReplicaCounts() {
        Pod old = Pods.failed(pserver(0), 1, "Error");
        Pod replacement = Pods.running(new io.fabric8.kubernetes.api.model.PodBuilder(pserver(0))
                .editMetadata().withCreationTimestamp(Pods.T1).endMetadata().build());
        assertThat(replica(map(created, old, replacement), "pserver-0").state()).isEqualTo(ReplicaState.RUNNING);
    }
}
