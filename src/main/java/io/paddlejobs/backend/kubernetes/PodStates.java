package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One replica's state from its pod: a pure function of what the kubelet and scheduler wrote.
 * Alongside the status it gives a one-word cause, which the job's status repeats when this
 * replica is what the job is waiting for or failed of.
 */
final class PodStates {

    /** A replica's status, and the one-word cause of its not running ({@code null} when it is). */
    record Observed(ReplicaStatus status, String cause) {
    }

    /** What a replica whose pod does not exist (yet) is doing. */
    static final String NOT_CREATED = "waiting to be created";

    private static final Set<String> IMAGE_PULL = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "ErrImageNeverPull");

    private PodStates() {
    }

    /**
     * @param pod     the replica's pod; {@code null} when there is none (not created yet, or removed)
     * @param stopped whether the job is over, so that a replica still running or gone was stopped by us
     */
    static Observed observe(Role role, int index, String host, Pod pod, boolean stopped) {
        String id = role.label() + "-" + index;
        if (pod == null) {
            return stopped ? new Observed(status(id, role, index, host, ReplicaState.STOPPED, 0, null, "stopped", null, null), null)
                    : new Observed(status(id, role, index, host, ReplicaState.PENDING, 0, null, NOT_CREATED,
                            null, null), "Starting");
        }
        ContainerStatus main = container(pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses());
        int restarts = main == null || main.getRestartCount() == null ? 0 : main.getRestartCount();
        ContainerState state = main == null ? null : main.getState();
        Instant started = startedAt(state);
        Instant finished = state != null && state.getTerminated() != null ? instant(state.getTerminated().getFinishedAt()) : null;
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();

        if (phase.equals("Succeeded")) {
            return new Observed(status(id, role, index, host, ReplicaState.SUCCEEDED, restarts, 0, null, started, finished), null);
        }
        if (phase.equals("Failed")) {
            return failed(id, role, index, host, pod, state, restarts, started, finished);
        }
        if (stopped) {
            return new Observed(status(id, role, index, host, ReplicaState.STOPPED, restarts, null, "stopped", started, finished), null);
        }
        if (state != null && state.getRunning() != null) {
            return new Observed(status(id, role, index, host, ReplicaState.RUNNING, restarts, null, null, started, null), null);
        }
        if (state != null && state.getWaiting() != null && "CrashLoopBackOff".equals(state.getWaiting().getReason())) {
            var last = main.getLastState() == null ? null : main.getLastState().getTerminated();
            String why = last == null ? "it keeps failing"
                    : ExitCodes.describe(last.getExitCode(), last.getReason());
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts,
                    last == null ? null : last.getExitCode(), "restarting after a crash, " + why, started, finished),
                    "CrashLoopBackOff");
        }
        return pending(id, role, index, host, pod, state, restarts);
    }

    private static Observed failed(String id, Role role, int index, String host, Pod pod, ContainerState state,
                                   int restarts, Instant started, Instant finished) {
        ContainerStatus init = container(pod.getStatus().getInitContainerStatuses(), WaitForPserversStep.CONTAINER);
        if (init != null && init.getState() != null && init.getState().getTerminated() != null
                && init.getState().getTerminated().getExitCode() != 0) {
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, null,
                    "gave up waiting for the pservers to accept connections; see the pserver logs", started, finished),
                    "PserversUnreachable");
        }
        if (state != null && state.getTerminated() != null) {
            var terminated = state.getTerminated();
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, terminated.getExitCode(),
                    ExitCodes.describe(terminated.getExitCode(), terminated.getReason()), started, finished),
                    "OOMKilled".equals(terminated.getReason()) ? "OOMKilled" : "ReplicaFailed");
        }
        String reason = pod.getStatus().getReason() != null ? pod.getStatus().getReason() : "ReplicaFailed";
        String message = pod.getStatus().getMessage() != null ? pod.getStatus().getMessage() : "the pod failed";
        return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, null, message, started, finished),
                reason);
    }

    private static Observed pending(String id, Role role, int index, String host, Pod pod, ContainerState state,
                                    int restarts) {
        String cause = "Starting";
        String words = "starting";
        PodCondition scheduled = condition(pod, "PodScheduled");
        ContainerStatus init = container(pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses(),
                WaitForPserversStep.CONTAINER);
        if (scheduled != null && "False".equals(scheduled.getStatus())) {
            cause = scheduled.getReason() != null ? scheduled.getReason() : "Unschedulable";
            words = "cannot be scheduled: " + scheduled.getMessage();
        } else if (state != null && state.getWaiting() != null && state.getWaiting().getReason() != null
                && !"ContainerCreating".equals(state.getWaiting().getReason())
                && !"PodInitializing".equals(state.getWaiting().getReason())) {
            var waiting = state.getWaiting();
            cause = waiting.getReason();
            words = IMAGE_PULL.contains(cause)
                    ? "cannot pull image " + imageOf(pod) + ": " + waiting.getMessage()
                    : waiting.getReason() + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage());
        } else if (init != null && init.getState() != null && init.getState().getRunning() != null) {
            cause = "WaitingForPservers";
            words = "waiting for every pserver to accept connections";
        }
        return new Observed(status(id, role, index, host, ReplicaState.PENDING, restarts, null, words, null, null), cause);
    }

    private static String imageOf(Pod pod) {
        return pod.getSpec() == null ? "" : pod.getSpec().getContainers().stream()
                .filter(c -> PodParts.MAIN_CONTAINER.equals(c.getName())).map(c -> "'" + c.getImage() + "'")
                .findFirst().orElse("");
    }

    private static PodCondition condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static ContainerStatus container(List<ContainerStatus> statuses) {
        return container(statuses, PodParts.MAIN_CONTAINER);
    }

    private static ContainerStatus container(List<ContainerStatus> statuses, String name) {
        return statuses == null ? null
                : statuses.stream().filter(s -> name.equals(s.getName())).findFirst().orElse(null);
    }

    private static Instant startedAt(ContainerState state) {
        if (state == null) {
            return null;
        }
        if (state.getRunning() != null) {
            return instant(state.getRunning().getStartedAt());
        }
        return state.getTerminated() != null ? instant(state.getTerminated().getStartedAt()) : null;
    }

    static Instant instant(String timestamp) {
        return timestamp == null ? null : Instant.parse(timestamp);
    }

    private static ReplicaStatus status(String id, Role role, int index, String host, ReplicaState state, int restarts,
                                        Integer exitCode, String reason, Instant started, Instant finished) {
        return new ReplicaStatus(id, role, index, host, state, restarts, exitCode, reason, started, finished);
    }
}
