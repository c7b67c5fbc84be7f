package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.Replica;
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

    static final String WAITING_FOR_PSERVERS = "WaitingForPservers";
    /** Causes that say only that a pod is on its way; the cluster's Events may say why it is stuck. */
    static final Set<String> UNEXPLAINED = Set.of("Starting", "ContainerCreating", "PodInitializing");

    private static final Set<String> IMAGE_PULL = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "ErrImageNeverPull");

    private PodStates() {
    }

    /**
     * @param pod     the replica's pod; {@code null} when there is none (not created yet, or removed)
     * @param stopped whether the job is over, so that a replica still running or gone was stopped by us
     */
    static Observed observe(Role role, int index, String host, Pod pod, boolean stopped) {
        String id = Replica.idOf(role, index);
        if (pod == null) {
            return stopped ? new Observed(status(id, role, index, host, ReplicaState.STOPPED, 0, null, "stopped", null, null), null)
                    : new Observed(status(id, role, index, host, ReplicaState.PENDING, 0, null, "waiting to be created",
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
        if (phase.equals("Failed") && !(stopped && terminatedBySigterm(state))) {
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

    /** Stopping a replica (suspend, delete) sends SIGTERM; a replica that then ends with 143 was stopped, not failed. */
    private static boolean terminatedBySigterm(ContainerState state) {
        return state != null && state.getTerminated() != null && Integer.valueOf(143).equals(state.getTerminated().getExitCode());
    }

    /** A trainer whose Job is held back until the pservers are ready. */
    static Observed held(Role role, int index, String host) {
        return new Observed(status(Replica.idOf(role, index), role, index, host, ReplicaState.PENDING, 0, null,
                "waiting for every pserver to be ready", null, null), WAITING_FOR_PSERVERS);
    }

    /** Whether the kubelet reports the pod ready (its readiness probe passes). */
    static boolean ready(Pod pod) {
        PodCondition ready = pod == null ? null : condition(pod, "Ready");
        return ready != null && "True".equals(ready.getStatus());
    }

    private static Observed failed(String id, Role role, int index, String host, Pod pod, ContainerState state,
                                   int restarts, Instant started, Instant finished) {
        ContainerStatus ownName = container(pod.getStatus().getInitContainerStatuses(), ResolveOwnNameStep.CONTAINER);
        if (ownName != null && ownName.getState() != null && ownName.getState().getTerminated() != null
                && ownName.getState().getTerminated().getExitCode() != 0) {
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, null,
                    "its own name did not resolve; is DNS (CoreDNS) working in the namespace?", started, finished),
                    "NameNotResolved");
        }
        ContainerStatus init = container(pod.getStatus().getInitContainerStatuses(), WaitForPserversStep.CONTAINER);
        if (init != null && init.getState() != null && init.getState().getTerminated() != null
                && init.getState().getTerminated().getExitCode() != 0) {
            String said = init.getState().getTerminated().getMessage();
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, null,
                    "gave up waiting for the pservers to accept connections"
                            + (said == null || said.isBlank() ? "" : " (" + said.strip() + ")") + "; see the pserver logs",
                    started, finished), "PserversUnreachable");
        }
        if (state != null && state.getTerminated() != null) {
            var terminated = state.getTerminated();
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, terminated.getExitCode(),
                    ExitCodes.describe(terminated.getExitCode(), terminated.getReason()), started, finished),
                    ExitCodes.OUT_OF_MEMORY.equals(terminated.getReason()) ? "OOMKilled" : "ReplicaFailed");
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
        ContainerStatus init = firstInit(pod);
        var initWaiting = init == null || init.getState() == null ? null : init.getState().getWaiting();
        var waiting = state == null ? null : state.getWaiting();
        if (scheduled != null && "False".equals(scheduled.getStatus())) {
            cause = scheduled.getReason() != null ? scheduled.getReason() : "Unschedulable";
            words = "cannot be scheduled: " + scheduled.getMessage();
        } else if (initWaiting != null && initWaiting.getReason() != null && !UNEXPLAINED.contains(initWaiting.getReason())) {
            // The init container comes first: while it cannot start, the main container only says PodInitializing.
            cause = initWaiting.getReason();
            words = waitingWords(cause, initWaiting.getMessage(), "'" + init.getImage() + "'", "the init container ");
        } else if (waiting != null && waiting.getReason() != null && !UNEXPLAINED.contains(waiting.getReason())) {
            cause = waiting.getReason();
            words = waitingWords(cause, waiting.getMessage(), imageOf(pod), "");
        } else if (init != null && init.getState() != null && init.getState().getRunning() != null) {
            boolean forPservers = WaitForPserversStep.CONTAINER.equals(init.getName());
            cause = forPservers ? WAITING_FOR_PSERVERS : "WaitingForItsName";
            words = forPservers ? "waiting for every pserver to accept connections" : "waiting for its name to resolve";
        } else if (waiting != null && waiting.getReason() != null) {
            cause = waiting.getReason();
            words = cause.equals("ContainerCreating") ? "creating its containers (pulling images, mounting volumes)"
                    : "waiting for its init container";
        }
        return new Observed(status(id, role, index, host, ReplicaState.PENDING, restarts, null, words, null, null), cause);
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

    private static PodCondition condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** The init container the pod is at: the first that has not finished. */
    private static ContainerStatus firstInit(Pod pod) {
        var statuses = pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses();
        return statuses == null ? null : statuses.stream()
                .filter(s -> s.getState() == null || s.getState().getTerminated() == null).findFirst().orElse(null);
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
