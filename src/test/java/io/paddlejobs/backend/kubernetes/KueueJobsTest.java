package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.lifecycle.JobLifecycle;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.backend.kubernetes.queue.QueueWaits;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job in a Kueue queue: its labels, and what the service leaves to Kueue (from objects written by hand). */
class KueueJobsTest {

    private final KubernetesProperties settings = Settings.of(KubernetesProperties.class, "queues.team-a", "gpu-team");
    private final JobPlan queued = Plans.plan(JobRequests.spec("name=mnist trainers=2 pservers=1 max_run_time=2h"
            + " priority=high").entryPoint("python train.py").build(), "team-a");
    private final Manifests manifests = Manifests.desired(queued, settings);

    @Test
    void bothJobsCarryTheQueueAndPriorityAndTheTrainersTheMaximumRunTime() {
        assertThat(manifests.trainerJob().getMetadata().getLabels()).containsEntry(KueueLabels.QUEUE_NAME, "gpu-team")
                .containsEntry(KueueLabels.PRIORITY_CLASS, "high").containsEntry(KueueLabels.MAX_EXEC_TIME, "7200");
        assertThat(manifests.trainerJob().getSpec().getActiveDeadlineSeconds()).isEqualTo(7200L);
        assertThat(manifests.pserverJob().getMetadata().getLabels()).containsEntry(KueueLabels.QUEUE_NAME, "gpu-team")
                .containsEntry(KueueLabels.PRIORITY_CLASS, "high").doesNotContainKey(KueueLabels.MAX_EXEC_TIME);
    }

    @Test
    void aQueuedJobIsNeverCreatedSuspendedByTheService() {
        assertThat(manifests.trainerJob().getSpec().getSuspend()).as("Kueue suspends it").isNull();
        assertThat(manifests.pserverJob().getSpec().getSuspend()).isNull();
    }

    @Test
    void theRequestsQueueWinsOverTheNamespacesAndOtherNamespacesHaveNone() {
        var own = Plans.plan(JobRequests.spec("name=mnist queue=mine").entryPoint("python train.py").build(), "team-a");
        assertThat(Manifests.desired(own, settings).trainerJob().getMetadata().getLabels())
                .containsEntry(KueueLabels.QUEUE_NAME, "mine");
        var elsewhere = Plans.plan(JobRequests.spec("name=mnist priority=high").entryPoint("python train.py").build(), "team-b");
        var labels = Manifests.desired(elsewhere, settings).trainerJob().getMetadata().getLabels();
        assertThat(labels).as("a priority without a queue means nothing to Kueue")
                .doesNotContainKeys(KueueLabels.QUEUE_NAME, KueueLabels.PRIORITY_CLASS);
    }

    @Test
    void trainersKueueHoldsAreQueuedNotReleasedAndNeverTimedOut() {
        Job held = new JobBuilder(manifests.trainerJob()).editMetadata().withCreationTimestamp(Pods.T0).endMetadata()
                .editSpec().withSuspend(true).endSpec().build();
        var pserver = Pods.ready(Pods.running(Pods.of("mnist", Role.PSERVER, 0)));
        var observed = new ObservedJob(held, manifests.pserverJob(), List.of(pserver));
        var status = JobStatusMapper.map(queued, observed);
        assertThat(status.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.reason()).isEqualTo(PodStates.QUEUED);
        assertThat(status.message()).contains("waiting in queue gpu-team");

        Instant muchLater = Instant.parse(Pods.T0).plus(Duration.ofHours(5));
        assertThat(JobLifecycle.next(queued, observed, status, muchLater, settings,
                KubernetesRuntime.DEFAULT_BACKOFF)).as("Kueue releases them").isEmpty();
    }

    @Test
    void aCancelledQueuedJobIsStoppedThroughKueueAndItsDeadlineNotBySuspendingAndAgainShouldKueueResumeIt() {
        Job cancelled = new JobBuilder(manifests.trainerJob()).editMetadata().withCreationTimestamp(Pods.T0)
                .addToAnnotations(JobLabels.CANCELLED_AT_ANNOTATION, Pods.T0).endMetadata().build();
        var observed = new ObservedJob(cancelled, manifests.pserverJob(), List.of());
        var actions = JobLifecycle.next(queued, observed, JobStatusMapper.map(queued, observed),
                Instant.parse(Pods.T0).plusSeconds(1), settings, KubernetesRuntime.DEFAULT_BACKOFF);
        assertThat(actions).containsExactly(new JobLifecycle.StopTrainers(), new JobLifecycle.StopPservers());

        Job noMoreTime = new JobBuilder(cancelled).editSpec().withActiveDeadlineSeconds(Workloads.NO_MORE_TIME).endSpec()
                .build();
        Job heldByKueue = new JobBuilder(noMoreTime).editSpec().withSuspend(true).endSpec().build();
        Job ended = new JobBuilder(noMoreTime).withNewStatus().addNewCondition().withType("Failed").withStatus("True")
                .withReason("DeadlineExceeded").endCondition().endStatus().build();
        for (Job stopped : List.of(heldByKueue, ended)) {
            var after = new ObservedJob(stopped, null, List.of());
            assertThat(JobLifecycle.next(queued, after, JobStatusMapper.map(queued, after), Instant.parse(Pods.T0).plusSeconds(1),
                    settings, KubernetesRuntime.DEFAULT_BACKOFF)).as("nothing more to stop").isEmpty();
        }
        // Resumed all the same (Kueue admitted it: its Workload was made after the cancel): stopped again.
        var resumed = new ObservedJob(noMoreTime, null, List.of());
        assertThat(JobLifecycle.next(queued, resumed, JobStatusMapper.map(queued, resumed), Instant.parse(Pods.T0).plusSeconds(1),
                settings, KubernetesRuntime.DEFAULT_BACKOFF)).containsExactly(new JobLifecycle.StopTrainers());
    }

    @Test
    void aWorkloadWithoutQuotaSaysWhyInKueuesWordsAndAnAdmittedOneNothing() {
        var waiting = workload(Map.of("type", "QuotaReserved", "status", "False", "reason", "Pending",
                "message", "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor"
                        + " default, 2 more needed"));
        assertThat(QueueWaits.waiting(waiting)).contains("insufficient unused quota for nvidia.com/gpu", "2 more needed");
        var admitted = workload(Map.of("type", "QuotaReserved", "status", "True"), Map.of("type", "Admitted", "status", "True"));
        assertThat(QueueWaits.waiting(admitted)).isNull();
    }

    @SafeVarargs
    private static GenericKubernetesResource workload(Map<String, Object>... conditions) {
        var workload = new GenericKubernetesResource();
        workload.setAdditionalProperties(Map.of("status", Map.of("conditions", List.of(conditions))));
        return workload;
    }
}
