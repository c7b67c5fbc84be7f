package io.paddlejobs.backend.kubernetes.queue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import java.util.List;
import java.util.Map;

/**
 * Why a gang-scheduled job waits, in Volcano's own words: its PodGroup's phase ({@code Pending}: not yet
 * let into its queue; {@code Inqueue}: let in, waiting for room for every replica at once) and the message of
 * its {@code Unschedulable} condition ("3/3 tasks in gang unschedulable: pod group is not ready, 3 minAvailable,
 * 3 Pending"). Read, as {@link QueueWaits} reads Kueue's Workloads, only for a job pending for no reason its pods
 * give, as often as {@link ClusterEvents} reads events.
 */
final class PodGroupWaits {

    private final KubernetesClient client;

    PodGroupWaits(KubernetesClient client) {
        this.client = client;
    }

    /** @return {@code null} when the job has no PodGroup (yet, or any more) */
    ObservedJob.Explanation of(ObservedJob job) {
        GenericKubernetesResource group = client.genericKubernetesResources(VolcanoGroups.API_VERSION, VolcanoGroups.KIND)
                .inNamespace(job.namespace()).withName(ObjectNames.podGroup(job.name())).get();
        return group == null ? null : explain(group);
    }

    /** What the PodGroup says of the wait; pure, for the tests. */
    @SuppressWarnings("unchecked")
    static ObservedJob.Explanation explain(GenericKubernetesResource group) {
        Map<String, Object> spec = map(group.getAdditionalProperties().get("spec"));
        Map<String, Object> status = map(group.getAdditionalProperties().get("status"));
        Object queue = spec.getOrDefault("queue", "default");
        String gang = "waiting in Volcano queue " + queue + " until all " + spec.get("minMember")
                + " replicas can be placed at once";
        Object phase = status.get("phase");
        if (phase == null) {
            return new ObservedJob.Explanation(PodStates.QUEUED, "PodGroup " + group.getMetadata().getName(),
                    gang + "; Volcano's scheduler has not looked at it yet (is Volcano running?)");
        }
        String unschedulable = null;
        if (status.get("conditions") instanceof List<?> conditions) {
            for (Object item : conditions) {
                Map<String, Object> condition = map(item);
                if ("Unschedulable".equals(condition.get("type")) && "True".equals(condition.get("status"))) {
                    unschedulable = String.valueOf(condition.get("message"));
                }
            }
        }
        return new ObservedJob.Explanation(PodStates.QUEUED, "PodGroup " + group.getMetadata().getName(),
                gang + " (" + phase + ")" + (unschedulable == null ? "" : ": " + unschedulable));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }
}
