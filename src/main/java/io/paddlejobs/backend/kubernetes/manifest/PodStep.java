package io.paddlejobs.backend.kubernetes.manifest;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One concern of a replica's pod (its command, environment, resources, storage, security),
 * applied as a pure function so that each can be read and tested on its own.
 */
public interface PodStep extends UnaryOperator<PodParts> {

    /** Applies the steps in order to an empty pod. */
    static PodParts build(List<PodStep> steps) {
        PodParts pod = PodParts.empty();
        for (PodStep step : steps) {
            pod = step.apply(pod);
        }
        return pod;
    }
}
