package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import java.time.Instant;
import java.util.List;

/** Null-safe reads of what the kubelet and scheduler wrote into a pod's status. */
public final class PodFields {

    private PodFields() {
    }

    static PodCondition condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** The init container the pod is at: the first that has not finished. */
    static ContainerStatus firstInit(Pod pod) {
        var statuses = pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses();
        return statuses == null ? null : statuses.stream()
                .filter(s -> s.getState() == null || s.getState().getTerminated() == null).findFirst().orElse(null);
    }

    static ContainerStatus container(List<ContainerStatus> statuses) {
        return container(statuses, PodParts.MAIN_CONTAINER);
    }

    static ContainerStatus container(List<ContainerStatus> statuses, String name) {
        return statuses == null ? null
                : statuses.stream().filter(s -> name.equals(s.getName())).findFirst().orElse(null);
    }

    static Instant startedAt(ContainerState state) {
        if (state == null) {
            return null;
        }
        if (state.getRunning() != null) {
            return instant(state.getRunning().getStartedAt());
        }
        return state.getTerminated() != null ? instant(state.getTerminated().getStartedAt()) : null;
    }

    public static Instant instant(String timestamp) {
        return timestamp == null ? null : Instant.parse(timestamp);
    }
}
