package io.paddlejobs.backend.kubernetes.queue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.manifest.step.GangSchedulingStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ResourcesStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Resources;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job as one Volcano gang ({@code paddlejobs.kubernetes.scheduler: volcano}): a PodGroup
 * ({@code scheduling.volcano.sh/v1beta1}) named as the job, whose {@code minMember} is every replica, so
 * Volcano's scheduler places all of the job's pods or none (no half-started job holds GPUs while it waits
 * for the rest); its {@code queue} is the request's {@code queue}, else the namespace's in
 * {@code paddlejobs.kubernetes.queues} (Volcano's queue, not Kueue's, on such a cluster), its
 * {@code priorityClassName} the request's {@code priority}, and its {@code minResources} the job's totals,
 * which Volcano checks against the queue before it tries to place the pods.
 *
 * <p>Every pod names the group ({@link GangSchedulingStep}), and no trainer is held back suspended: a gang
 * of pservers alone would never be complete. The trainers wait for the pservers in their init container
 * instead, as under Kueue. The PodGroup is owned by the trainer Job, as the job's other objects are.
 */
public final class VolcanoGroups {

    public static final String API_VERSION = "scheduling.volcano.sh/v1beta1";
    public static final String KIND = "PodGroup";
    /** The {@code schedulerName} of the pods Volcano's scheduler places. */
    public static final String SCHEDULER_NAME = "volcano";
    /** The pod annotation that names its PodGroup (Volcano's {@code KubeGroupNameAnnotationKey}). */
    public static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

    private VolcanoGroups() {
    }

    /** Whether the service's jobs are gang-scheduled by Volcano. */
    public static boolean chosen(KubernetesProperties settings) {
        return settings.scheduler() == KubernetesProperties.Scheduler.VOLCANO;
    }

    /** The Volcano queue of the job: the request's, else the namespace's default, else none (Volcano's {@code default}). */
    static String queue(JobPlan plan, KubernetesProperties settings) {
        String asked = plan.spec().placement().queue();
        return asked != null ? asked : settings.queues().get(plan.namespace());
    }

    public static GenericKubernetesResource desired(JobPlan plan, KubernetesProperties settings) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("minMember", plan.replicas().size());
        spec.put("minResources", requests(plan.totals()));
        String queue = queue(plan, settings);
        if (queue != null) {
            spec.put("queue", queue);
        }
        String priority = plan.spec().placement().priority();
        if (priority != null) {
            spec.put("priorityClassName", priority);
        }
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(KIND)
                .withNewMetadata()
                    .withName(ObjectNames.podGroup(plan.name()))
                    .withNamespace(plan.namespace())
                    .withLabels(JobLabels.of(plan))
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }

    /** The job's totals as resource requests, as its pods ask for them ({@link ResourcesStep}). */
    private static Map<String, String> requests(Resources totals) {
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put("cpu", totals.cpu().toString());
        requests.put("memory", totals.memory().toString());
        if (totals.gpu() > 0) {
            requests.put(ResourcesStep.GPU, Integer.toString(totals.gpu()));
        }
        return requests;
    }
}
