package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.step.WaitForPserversStep;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.Role;
import java.util.Set;

/**
 * Why a replica's pod is not running yet, in words and a one-word cause: not schedulable, an image
 * that cannot be pulled, an init container still waiting for the pservers or for its own name.
 */
final class PendingPods {

    private static final Set<String> IMAGE_PULL = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "ErrImageNeverPull");

    private PendingPods() {
    }

    static PodStates.Observed observe(String id, Role role, int index, String host, Pod pod, ContainerState state,
                                    int restarts) {
        String cause = "Starting";
        String words = "starting";
        PodCondition scheduled = PodFields.condition(pod, "PodScheduled");
        ContainerStatus init = PodFields.firstInit(pod);
        var initWaiting = init == null || init.getState() == null ? null : init.getState().getWaiting();
        var waiting = state == null ? null : state.getWaiting();
        if (scheduled != null && "False".equals(scheduled.getStatus())) {
            cause = scheduled.getReason() != null ? scheduled.getReason() : "Unschedulable";
            words = "cannot be scheduled: " + scheduled.getMessage();
        } else if (initWaiting != null && initWaiting.getReason() != null && !PodStates.UNEXPLAINED.contains(initWaiting.getReason())) {
            // The init container comes first: while it cannot start, the main container only says PodInitializing.
            cause = initWaiting.getReason();
            words = waitingWords(cause, initWaiting.getMessage(), "'" + init.getImage() + "'", "the init container ");
        } else if (waiting != null && waiting.getReason() != null && !PodStates.UNEXPLAINED.contains(waiting.getReason())) {
            cause = waiting.getReason();
            words = waitingWords(cause, waiting.getMessage(), imageOf(pod), "");
        } else if (init != null && init.getState() != null && init.getState().getRunning() != null) {
            boolean forPservers = WaitForPserversStep.CONTAINER.equals(init.getName());
            cause = forPservers ? PodStates.WAITING_FOR_PSERVERS : "WaitingForItsName";
            words = forPservers ? "waiting for every pserver to accept connections" : "waiting for its name to resolve";
        } else if (waiting != null && waiting.getReason() != null) {
            cause = waiting.getReason();
            words = cause.equals("ContainerCreating") ? "creating its containers (pulling images, mounting volumes)"
                    : "waiting for its init container";
        }
        return new PodStates.Observed(PodStates.status(id, role, index, host, ReplicaState.PENDING, restarts, null, words, null, null), cause);
    }

    private static String waitingWords(String cause, String message, String image, String which) {
        return IMAGE_PULL.contains(cause)
                ? which + "cannot pull image " + image + (message == null ? "" : ": " + message)
                : which + cause + (message == null ? "" : ": " + message);
    }

    private static String imageOf(Pod pod) {
        return pod.getSpec() == null ? "" : pod.getSpec().getContainers().stream()
                .filter(c -> PodParts.MAIN_CONTAINER.equals(c.getName())).map(c -> "'" + c.getImage() + "'")
                .findFirst().orElse("");
    }
}
