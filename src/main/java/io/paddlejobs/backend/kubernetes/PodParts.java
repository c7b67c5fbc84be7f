package io.paddlejobs.backend.kubernetes;

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
record PodParts(ObjectMeta metadata, PodSpec spec, Container main) {

    static final String MAIN_CONTAINER = "paddle";

    static PodParts empty() {
        return new PodParts(new ObjectMeta(), new PodSpecBuilder().build(),
                new ContainerBuilder().withName(MAIN_CONTAINER).build());
    }

    PodParts withMetadata(ObjectMeta newMetadata) {
        return new PodParts(newMetadata, spec, main);
    }

    PodParts withSpec(PodSpec newSpec) {
        return new PodParts(metadata, newSpec, main);
    }

    PodParts withMain(Container newMain) {
        return new PodParts(metadata, spec, newMain);
    }

    PodTemplateSpec toTemplate() {
        return new PodTemplateSpecBuilder()
                .withMetadata(metadata)
                .withSpec(new PodSpecBuilder(spec).withContainers(main).build())
                .build();
    }
}
