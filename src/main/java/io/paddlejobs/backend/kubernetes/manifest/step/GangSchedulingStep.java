package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;

/**
 * Hands a replica's pod to Volcano's scheduler as a member of its job's PodGroup ({@link VolcanoGroups}):
 * the default scheduler places pods one at a time, which is what lets two jobs each hold half of the GPUs.
 */
public record GangSchedulingStep(String podGroup) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        return pod.withMetadata(new ObjectMetaBuilder(pod.metadata())
                        .addToAnnotations(VolcanoGroups.GROUP_ANNOTATION, podGroup).build())
                .withSpec(new PodSpecBuilder(pod.spec()).withSchedulerName(VolcanoGroups.SCHEDULER_NAME).build());
    }
}
