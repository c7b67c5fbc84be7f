package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.paddlejobs.backend.LastWords;
import io.paddlejobs.backend.kubernetes.manifest.step.ResolveOwnNameStep;
import io.paddlejobs.backend.kubernetes.manifest.step.WaitForPserversStep;
import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.Set;

/**
 * One replica's state from its pod: a pure function of what the kubelet and scheduler wrote.
 * Alongside the status it gives a one-word cause, which the job's status repeats when this
 * replica is what the job is waiting for or failed of.
 */
public final class PodStates {

    /** A replica's status, and the one-word cause of its not running ({@code null} when it is). */
    record Observed(ReplicaStatus status, String cause) {
    }

    public static final String WAITING_FOR_PSERVERS = "WaitingForPservers";
    /** Causes that say only that a pod is on its way; the cluster's Events may say why it is stuck. */
    public static final String QUEUED = "Queued";
    public static final Set<String> UNEXPLAINED = Set.of("Starting", "ContainerCreating", "PodInitializing", QUEUED);

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
        ContainerStatus main = PodFields.container(pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses());
        int restarts = main == null || main.getRestartCount() == null ? 0 : main.getRestartCount();
        ContainerState state = main == null ? null : main.getState();
        Instant started = PodFields.startedAt(state);
        Instant finished = state != null && state.getTerminated() != null ? PodFields.instant(state.getTerminated().getFinishedAt()) : null;
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
        return PendingPods.observe(id, role, index, host, pod, state, restarts);
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

    /** A replica whose Job Kueue has not admitted yet (it keeps the Job suspended); the Workload says why. */
    static Observed queued(Role role, int index, String host, String queue) {
        return new Observed(status(Replica.idOf(role, index), role, index, host, ReplicaState.PENDING, 0, null,
                "waiting in queue " + queue, null, null), QUEUED);
    }

    /** Whether the kubelet reports the pod ready (its readiness probe passes). */
    public static boolean ready(Pod pod) {
        PodCondition ready = pod == null ? null : PodFields.condition(pod, "Ready");
        return ready != null && "True".equals(ready.getStatus());
    }

    private static Observed failed(String id, Role role, int index, String host, Pod pod, ContainerState state,
                                   int restarts, Instant started, Instant finished) {
        ContainerStatus ownName = PodFields.container(pod.getStatus().getInitContainerStatuses(), ResolveOwnNameStep.CONTAINER);
        if (ownName != null && ownName.getState() != null && ownName.getState().getTerminated() != null
                && ownName.getState().getTerminated().getExitCode() != 0) {
            return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, null,
                    "its own name did not resolve; is DNS (CoreDNS) working in the namespace?", started, finished),
                    "NameNotResolved");
        }
        ContainerStatus init = PodFields.container(pod.getStatus().getInitContainerStatuses(), WaitForPserversStep.CONTAINER);
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
                    // The container's termination message is its log's end (FallbackToLogsOnError): no API call.
                    ExitCodes.describe(terminated.getExitCode(), terminated.getReason(),
                            LastWords.lastSaying(terminated.getMessage())), started, finished),
                    ExitCodes.OUT_OF_MEMORY.equals(terminated.getReason()) ? "OOMKilled" : "ReplicaFailed");
        }
        String reason = pod.getStatus().getReason() != null ? pod.getStatus().getReason() : "ReplicaFailed";
        String message = pod.getStatus().getMessage() != null ? pod.getStatus().getMessage() : "the pod failed";
        return new Observed(status(id, role, index, host, ReplicaState.FAILED, restarts, null, message, started, finished),
                reason);
    }

    public static ReplicaStatus status(String id, Role role, int index, String host, ReplicaState state, int restarts,
                                        Integer exitCode, String reason, Instant started, Instant finished) {
        return new ReplicaStatus(id, role, index, host, state, restarts, exitCode, reason, started, finished);
    }
}
