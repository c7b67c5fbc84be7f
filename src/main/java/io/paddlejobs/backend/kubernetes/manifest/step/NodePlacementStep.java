package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PlacementAllowList;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobRequest;
import java.util.TreeMap;

/**
 * Which nodes a replica may run on, as the request asks (and the operator allowed: {@link PlacementAllowList}):
 * its node selector, the taints it tolerates, and its required node affinity as one term whose
 * requirements must all hold. Nothing when the request asks nothing.
 */
public record NodePlacementStep(JobRequest.Placement placement) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        if (placement.nodeSelector().isEmpty() && placement.tolerations().isEmpty() && placement.nodeAffinity().isEmpty()) {
            return pod;
        }
        var spec = new PodSpecBuilder(pod.spec());
        if (!placement.nodeSelector().isEmpty()) {
            spec.withNodeSelector(new TreeMap<>(placement.nodeSelector()));
        }
        placement.tolerations().forEach(t -> spec.addToTolerations(new TolerationBuilder().withKey(t.key())
                .withOperator(t.operator() != null ? t.operator() : "Equal").withValue(t.value()).withEffect(t.effect())
                .build()));
        if (!placement.nodeAffinity().isEmpty()) {
            spec.withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
                    .addNewNodeSelectorTerm()
                    .withMatchExpressions(placement.nodeAffinity().stream()
                            .map(r -> new NodeSelectorRequirementBuilder().withKey(r.key()).withOperator(r.operator())
                                    .withValues(r.values().isEmpty() ? null : r.values()).build())
                            .toList())
                    .endNodeSelectorTerm()
                    .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity();
        }
        return pod.withSpec(spec.build());
    }
}
