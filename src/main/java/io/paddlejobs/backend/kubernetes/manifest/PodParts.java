package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;

/**
 * A pod template while it is being built: the pod's metadata and spec, and its main container
 * kept apart so that each {@link PodStep} can change it without searching the container list.
 */
public record PodParts(ObjectMeta metadata, PodSpec spec, Container main) {

    public static final String MAIN_CONTAINER = "paddle";

    public static PodParts empty() {
        return new PodParts(new ObjectMeta(), new PodSpecBuilder().build(),
                new ContainerBuilder().withName(MAIN_CONTAINER).build());
    }

    public PodParts withMetadata(ObjectMeta newMetadata) {
        return new PodParts(newMetadata, spec, main);
    }

    public PodParts withSpec(PodSpec newSpec) {
        return new PodParts(metadata, newSpec, main);
    }

    public PodParts withMain(Container newMain) {
        return new PodParts(metadata, spec, newMain);
    }

    PodTemplateSpec toTemplate() {
        return new PodTemplateSpecBuilder()
                .withMetadata(metadata)
                .withSpec(new PodSpecBuilder(spec).withContainers(main).build())
                .build();
    }
}
