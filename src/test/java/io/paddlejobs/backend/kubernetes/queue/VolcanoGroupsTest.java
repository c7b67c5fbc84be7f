package io.paddlejobs.backend.kubernetes.queue;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.cluster.Slim;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.step.WaitForPserversStep;
import io.paddlejobs.backend.kubernetes.status.AttemptState;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code scheduler: volcano}: one PodGroup per job, every pod in it, nothing held back suspended, and why it waits. */
class VolcanoGroupsTest {

    private final KubernetesProperties volcano = Settings.of(KubernetesProperties.class, "scheduler", "volcano",
            "queues.ml", "research");
    private final JobPlan plan = Plans.plan(Plans.gpuRequest("vision", 2));

    @Test
    void aJobIsOnePodGroupOfEveryReplicaInTheNamespacesQueueOwnedLikeTheOtherObjects() {
        Manifests manifests = Manifests.desired(plan, volcano);

        assertThat(manifests.inCreationOrder()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
                .containsExactly("Job/vision-trainer", "Service/vision", "Job/vision-pserver", "PodGroup/vision");
        assertThat(manifests.owned()).contains(manifests.podGroup());
        GenericKubernetesResource group = manifests.podGroup();
        assertThat(group.getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
        assertThat(group.getMetadata().getNamespace()).isEqualTo("ml");
        assertThat(group.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "paddle-jobs")
                .containsEntry("app.kubernetes.io/name", "vision");
        Map<String, Object> spec = spec(group);
        assertThat(spec).containsEntry("minMember", 4).containsEntry("queue", "research").doesNotContainKey("priorityClassName");
        assertThat(spec.get("minResources")).isEqualTo(Map.of("cpu", plan.totals().cpu().toString(),
                "memory", plan.totals().memory().toString(), "nvidia.com/gpu", "2"));
    }

    @Test
    void theRequestsQueueAndPriorityWinAndNoKueueLabelIsWritten() {
        JobPlan asked = Plans.plan(JobRequests.named("ranked", "python train.py").numCpus(2).queue("urgent")
                .priority("high-priority").build());
        Manifests manifests = Manifests.desired(asked, volcano);

        assertThat(spec(manifests.podGroup())).containsEntry("queue", "urgent").containsEntry("priorityClassName", "high-priority")
                .containsEntry("minMember", 4);
        assertThat(manifests.trainerJob().getMetadata().getLabels()).noneSatisfy((key, value) ->
                assertThat(key).startsWith(KueueLabels.PREFIX));
        assertThat(manifests.pserverJob().getMetadata().getLabels()).noneSatisfy((key, value) ->
                assertThat(key).startsWith(KueueLabels.PREFIX));
    }

    @Test
    void everyPodIsHandedToVolcanoAsAMemberOfTheGroupAndTheTrainersAreNotHeldBack() {
        Manifests manifests = Manifests.desired(plan, volcano);

        for (PodTemplateSpec pod : List.of(manifests.trainerJob().getSpec().getTemplate(),
                manifests.pserverJob().getSpec().getTemplate())) {
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("volcano");
            assertThat(pod.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", "vision");
        }
        assertThat(manifests.trainerJob().getSpec().getSuspend()).as("a gang of pservers alone is never placed").isNull();
        assertThat(manifests.trainerJob().getSpec().getTemplate().getSpec().getInitContainers())
                .extracting(c -> c.getName()).contains(WaitForPserversStep.CONTAINER);
        assertThat(new ObservedJob(manifests.trainerJob(), null, List.of()).gang()).isTrue();
        assertThat(new ObservedJob(Slim.job(manifests.trainerJob()), null, List.of()).gang())
                .as("the informers' slim copy says so too").isTrue();
    }

    @Test
    void withoutVolcanoThereIsNoPodGroupAndTheDefaultSchedulerPlacesThePods() {
        Manifests manifests = Manifests.desired(plan, Settings.defaults(KubernetesProperties.class));

        assertThat(manifests.podGroup()).isNull();
        assertThat(manifests.trainerJob().getSpec().getTemplate().getSpec().getSchedulerName()).isNull();
        assertThat(manifests.trainerJob().getSpec().getSuspend()).isTrue();
        assertThat(new ObservedJob(manifests.trainerJob(), null, List.of()).gang()).isFalse();
    }

    @Test
    void aLaterAttemptMakesItsPodGroupAgainAndWaitsOnlyForItsBackoff() {
        Manifests attempt = Manifests.forAttempt(plan, volcano, DataClaim.assumed(volcano.dataClaim()), null,
                AttemptState.of(Manifests.desired(plan, volcano).trainerJob()));

        assertThat(attempt.podGroup()).isNotNull();
        assertThat(attempt.trainerJob().getSpec().getSuspend()).as("held for the backoff, released by startAttempt").isTrue();
    }

    @Test
    void volcanoWithTheJobSetWorkloadIsRefusedAtStartUpSayingWhy() {
        assertThatThrownBy(() -> Settings.of(KubernetesProperties.class, "scheduler", "volcano", "workload", "jobset"))
                .rootCause().hasMessageContaining("paddlejobs.kubernetes.scheduler volcano needs paddlejobs.kubernetes.workload jobs");
    }

    @Test
    void aWaitingGroupIsExplainedInVolcanosWords() {
        var waiting = PodGroupWaits.explain(group(Map.of("phase", "Inqueue", "conditions", List.of(
                Map.of("type", "Scheduled", "status", "False"),
                Map.of("type", "Unschedulable", "status", "True",
                        "message", "4/4 tasks in gang unschedulable: pod group is not ready, 4 minAvailable, 4 Pending")))));

        assertThat(waiting.reason()).isEqualTo(PodStates.QUEUED);
        assertThat(waiting.object()).isEqualTo("PodGroup vision");
        assertThat(waiting.message()).isEqualTo("waiting in Volcano queue research until all 4 replicas can be placed at once"
                + " (Inqueue): 4/4 tasks in gang unschedulable: pod group is not ready, 4 minAvailable, 4 Pending");
    }

    @Test
    void aGroupVolcanoHasNotLookedAtSaysSo() {
        assertThat(PodGroupWaits.explain(group(null)).message())
                .endsWith("Volcano's scheduler has not looked at it yet (is Volcano running?)");
    }

    private GenericKubernetesResource group(Map<String, Object> status) {
        GenericKubernetesResource group = new GenericKubernetesResourceBuilder(Manifests.desired(plan, volcano).podGroup()).build();
        if (status != null) {
            group.getAdditionalProperties().put("status", status);
        }
        return group;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource group) {
        return (Map<String, Object>) group.getAdditionalProperties().get("spec");
    }
}
