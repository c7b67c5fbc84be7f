package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.planning.Role;
import java.util.Map;

/** Pods and trainer Jobs in the states the kubelet, scheduler and job controller would write. */
public final class Pods {

    public static final String T0 = "2026-01-01T10:00:00Z";
    public static final String T1 = "2026-01-01T10:05:00Z";

    private Pods() {
    }

    public static Pod of(String job, Role role, int index) {
        var pod = new PodBuilder().withNewMetadata()
                .withNamespace("ml")
                .withName(ObjectNames.podHostname(job, role, index) + "-x7k2p")
                .withLabels(JobLabels.selector(job, role))
                .withCreationTimestamp(T0)
                .endMetadata()
                .withNewSpec().addNewContainer().withName("paddle").withImage("example/paddle:gpu").endContainer().endSpec();
        pod.editMetadata().addToAnnotations(JobLabels.COMPLETION_INDEX_ANNOTATION, Integer.toString(index))
                .addToLabels("job-name", ObjectNames.workload(job, role)).endMetadata();
        return pod.withNewStatus().withPhase("Pending").endStatus().build();
    }

    public static Pod running(Pod pod) {
        return withMain(pod, "Running", new ContainerStatusBuilder().withName("paddle").withRestartCount(0)
                .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(T0).endRunning().build()).build());
    }

    public static Pod succeeded(Pod pod) {
        return withMain(pod, "Succeeded", terminated(0, "Completed"));
    }

    public static Pod failed(Pod pod, int exitCode, String reason) {
        return withMain(pod, "Failed", terminated(exitCode, reason));
    }

    /** Failed, its termination message its log's end (as {@code FallbackToLogsOnError} makes it). */
    public static Pod failedSaying(Pod pod, int exitCode, String logEnd) {
        return withMain(pod, "Failed", new ContainerStatusBuilder().withName("paddle").withRestartCount(0)
                .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode).withReason("Error")
                        .withMessage(logEnd).withStartedAt(T0).withFinishedAt(T1).endTerminated().build())
                .build());
    }

    public static Pod waiting(Pod pod, String reason, String message) {
        return withMain(pod, "Pending", new ContainerStatusBuilder().withName("paddle").withRestartCount(0)
                .withState(new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message)
                        .endWaiting().build()).build());
    }

    public static Pod crashLooping(Pod pod, int lastExitCode, int restarts) {
        return withMain(pod, "Running", new ContainerStatusBuilder().withName("paddle").withRestartCount(restarts)
                .withState(new ContainerStateBuilder().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().build())
                .withLastState(new ContainerStateBuilder().withNewTerminated().withExitCode(lastExitCode)
                        .withReason("Error").endTerminated().build())
                .build());
    }

    /** The readiness probe passes. */
    public static Pod ready(Pod pod) {
        return new PodBuilder(pod).editStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build();
    }

    public static Pod unschedulable(Pod pod, String message) {
        return new PodBuilder(pod).editStatus().withPhase("Pending").addNewCondition().withType("PodScheduled")
                .withStatus("False").withReason("Unschedulable").withMessage(message).endCondition().endStatus().build();
    }

    public static Pod waitingForPservers(Pod pod) {
        return new PodBuilder(pod).editStatus().withPhase("Pending").addNewInitContainerStatus()
                .withName("wait-for-pservers").withNewState().withNewRunning().withStartedAt(T0).endRunning().endState()
                .endInitContainerStatus().endStatus().build();
    }

    public static Pod gaveUpWaitingForPservers(Pod pod) {
        return new PodBuilder(pod).editStatus().withPhase("Failed").addNewInitContainerStatus()
                .withName("wait-for-pservers").withNewState().withNewTerminated().withExitCode(1)
                .withMessage("pserver job-pserver-1.job:7164 did not accept connections within 600s\n").endTerminated()
                .endState().endInitContainerStatus().endStatus().build();
    }

    public static Job withCondition(Job job, String type) {
        var builder = new JobBuilder(job).editOrNewStatus().withStartTime(T0).addToConditions(new JobConditionBuilder()
                .withType(type).withStatus("True").withLastTransitionTime(T1).withReason(type.equals("Failed")
                        ? "BackoffLimitExceeded" : null).withMessage(type.equals("Failed")
                        ? "Job has reached the specified backoff limit" : null).build());
        if (type.equals("Complete")) {
            builder.withCompletionTime(T1);
        }
        return builder.endStatus().build();
    }

    public static Job cancelled(Job job) {
        return new JobBuilder(job).editMetadata().addToAnnotations(Map.of(JobLabels.CANCELLED_AT_ANNOTATION, T1))
                .endMetadata().build();
    }

    private static ContainerStatus terminated(int exitCode, String reason) {
        return new ContainerStatusBuilder().withName("paddle").withRestartCount(0)
                .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode).withReason(reason)
                        .withStartedAt(T0).withFinishedAt(T1).endTerminated().build())
                .build();
    }

    private static Pod withMain(Pod pod, String phase, ContainerStatus status) {
        return new PodBuilder(pod).editStatus().withPhase(phase).withContainerStatuses(status).endStatus().build();
    }
}
