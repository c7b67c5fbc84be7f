package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.Resources;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the plan gives one replica, as requests equal to limits (a replica gets exactly what was
 * planned, and is the last to be evicted), and GPUs as {@code nvidia.com/gpu} limits.
 */
public record ResourcesStep(Resources perReplica) implements PodStep {

    public static final String GPU = "nvidia.com/gpu";

    @Override
    public PodParts apply(PodParts pod) {
        return pod.withMain(new ContainerBuilder(pod.main()).withResources(requirements(perReplica)).build());
    }

    static ResourceRequirements requirements(Resources resources) {
        Map<String, Quantity> requests = new LinkedHashMap<>();
        requests.put("cpu", new Quantity(resources.cpu().toString()));
        requests.put("memory", new Quantity(resources.memory().toString()));
        Map<String, Quantity> limits = new LinkedHashMap<>(requests);
        if (resources.gpu() > 0) {
            limits.put(GPU, new Quantity(Integer.toString(resources.gpu())));
        }
        return new ResourceRequirementsBuilder().withRequests(requests).withLimits(limits).build();
    }
}
