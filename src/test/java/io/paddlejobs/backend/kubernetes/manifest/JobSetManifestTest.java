package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSetManifestTest {

    private final KubernetesProperties settings = Settings.defaults(KubernetesProperties.class);

    @Test
    void theTrainersDependOnThePserversBeingReadyAndEndTheJobSet() {
        Map<String, Object> spec = spec(jobSet(Plans.planAsJobSet(Plans.gpuRequest("mnist", 1), "ml")));

        List<Map<String, Object>> replicated = list(spec.get("replicatedJobs"));
        assertThat(replicated).extracting(r -> r.get("name")).containsExactly("pserver", "trainer");
        assertThat(replicated).allSatisfy(r -> assertThat(r).containsEntry("replicas", 1));
        assertThat(replicated.get(1).get("dependsOn")).isEqualTo(List.of(Map.of("name", "pserver", "status", "Ready")));
        assertThat(spec.get("successPolicy")).isEqualTo(Map.of("operator", "All", "targetReplicatedJobs", List.of("trainer")));
        assertThat(spec.get("network")).isEqualTo(Map.of("enableDNSHostnames", true, "subdomain", "mnist",
                "publishNotReadyAddresses", true));
        assertThat(spec).containsEntry("ttlSecondsAfterFinished", settings.ttlSecondsAfterFinished());
    }

    @Test
    void maxRestartsIsTheJobSetsFailurePolicy() {
        var request = JobRequests.named("again", "python train.py").numCpus(1).maxRestarts(3).build();
        assertThat(spec(jobSet(Plans.planAsJobSet(request, "ml"))).get("failurePolicy")).isEqualTo(Map.of("maxRestarts", 3));
        assertThat(spec(jobSet(Plans.planAsJobSet(Plans.request("once", 1), "ml"))).get("failurePolicy"))
                .isEqualTo(Map.of("maxRestarts", 0));
    }

    @Test
    void theChildJobsAreTheTwoJobsWithoutSuspensionTtlOrQueueAndTheJobSetCarriesTheRequestAndQueue() {
        var queued = Settings.of(KubernetesProperties.class, "queues.ml", "gpu-team");
        JobPlan plan = Plans.planAsJobSet(Plans.gpuRequest("mnist", 1), "ml");
        var jobSet = JobSetManifest.desired(plan, queued, DataClaim.assumed(queued.dataClaim()), null);

        assertThat(jobSet.getMetadata().getLabels()).containsEntry(KueueLabels.QUEUE_NAME, "gpu-team")
                .containsEntry(JobLabels.NAME, "mnist");
        assertThat(jobSet.getMetadata().getAnnotations()).containsKey(JobLabels.SPEC_ANNOTATION);
        for (Map<String, Object> replicated : list(spec(jobSet).get("replicatedJobs"))) {
            Map<String, Object> template = map(replicated.get("template"));
            assertThat(map(template.get("spec"))).doesNotContainKeys("suspend", "ttlSecondsAfterFinished")
                    .containsEntry("completionMode", "Indexed").containsEntry("backoffLimit", 0);
            assertThat(map(map(template.get("metadata")).get("labels")))
                    .containsEntry(JobLabels.ROLE, replicated.get("name")).doesNotContainKey(KueueLabels.QUEUE_NAME);
        }
    }

    @Test
    void replicasAreNamedAsTheJobSetsChildJobsNameTheirPods() {
        JobPlan plan = Plans.planAsJobSet(Plans.gpuRequest("mnist", 1), "ml");
        assertThat(plan.replicas()).extracting(r -> r.host())
                .containsExactly("mnist-pserver-0-0.mnist", "mnist-trainer-0-0.mnist");
        assertThat(ObjectNames.hostPrefix(plan, io.paddlejobs.planning.Role.TRAINER)).isEqualTo("mnist-trainer-0");
        assertThat(ObjectNames.hostPrefix(Plans.plan(Plans.gpuRequest("mnist", 1)), io.paddlejobs.planning.Role.TRAINER))
                .isEqualTo("mnist-trainer");
    }

    @Test
    void aCollectiveJobIsTrainersAlone() {
        Map<String, Object> spec = spec(jobSet(Plans.planAsJobSet(Plans.collectiveRequest("allreduce", 2), "ml")));
        assertThat(list(spec.get("replicatedJobs"))).singleElement()
                .satisfies(r -> assertThat(r).containsEntry("name", "trainer").doesNotContainKey("dependsOn"));
    }

    private io.fabric8.kubernetes.api.model.GenericKubernetesResource jobSet(JobPlan plan) {
        return JobSetManifest.desired(plan, settings, DataClaim.assumed(settings.dataClaim()), null);
    }

    private static Map<String, Object> spec(io.fabric8.kubernetes.api.model.GenericKubernetesResource jobSet) {
        return map(jobSet.getAdditionalProperties().get("spec"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }
}
