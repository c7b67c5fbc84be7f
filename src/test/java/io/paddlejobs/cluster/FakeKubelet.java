package io.paddlejobs.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * How a test steers what the fake nodes' pods do (the stages in kwok-stages.yaml): by labels on
 * the job request, which reach every pod, and by the image. Pservers keep running, ready,
 * unless a label says otherwise.
 */
public final class FakeKubelet {

    /** An image no node can pull: the pods wait with ErrImagePull. */
    public static final String UNPULLABLE_IMAGE = "registry.invalid/unpullable:1";

    static final String EXIT_CODE_LABEL = "kwok.paddlejobs.test/exit-code";
    static final String TRAINER_LABEL = "kwok.paddlejobs.test/trainer";
    static final String PSERVER_EXIT_CODE_LABEL = "kwok.paddlejobs.test/pserver-exit-code";
    static final String PSERVER_LABEL = "kwok.paddlejobs.test/pserver";
    static final String START_LABEL = "kwok.paddlejobs.test/start";
    static final String FIRST_ATTEMPT_LABEL = "kwok.paddlejobs.test/first-attempt";

    private FakeKubelet() {
    }

    /** Job labels that make every trainer run a moment, then exit with this code (0 is the default anyway). */
    public static Map<String, String> trainersExitWith(int code) {
        return Map.of(EXIT_CODE_LABEL, Integer.toString(code));
    }

    /** Job labels that make every trainer of the job's first attempt exit 1, and of every later attempt exit 0. */
    public static Map<String, String> trainersFailTheFirstAttempt() {
        return Map.of(FIRST_ATTEMPT_LABEL, "fails");
    }

    /** Job labels that keep the trainers running until they are stopped. */
    public static Map<String, String> trainersKeepRunning() {
        return Map.of(TRAINER_LABEL, "keep-running");
    }

    /** Job labels that make every pserver crash with this code a moment after it got ready. */
    public static Map<String, String> pserversCrashWith(int code) {
        return Map.of(PSERVER_EXIT_CODE_LABEL, Integer.toString(code));
    }

    /** Job labels that keep every pserver running but not ready, until {@link #passReadinessProbe} says otherwise. */
    public static Map<String, String> pserversNotReady() {
        return Map.of(PSERVER_LABEL, "not-ready");
    }

    /** Job labels that leave every pod Pending in ContainerCreating, as a slow image pull or a volume does. */
    public static Map<String, String> podsStuckCreating() {
        return Map.of(START_LABEL, "stuck");
    }

    /** Reports the pod ready, as a kubelet does once its readiness probe passes. */
    public static void passReadinessProbe(KubernetesClient admin, Pod pod) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        admin.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
            p.getStatus().getConditions().removeIf(c -> "Ready".equals(c.getType()) || "ContainersReady".equals(c.getType()));
            p.getStatus().getConditions().add(condition("Ready", now));
            p.getStatus().getConditions().add(condition("ContainersReady", now));
            p.getStatus().getContainerStatuses().forEach(c -> c.setReady(true));
            return p;
        });
    }

    /** Ends a running pod's program with this exit code, as a kubelet reports it (for trainers kept running). */
    public static void exit(KubernetesClient admin, Pod pod, int code) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        admin.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
            p.getStatus().setPhase(code == 0 ? "Succeeded" : "Failed");
            p.getStatus().getContainerStatuses().forEach(c -> {
                String started = c.getState() != null && c.getState().getRunning() != null
                        ? c.getState().getRunning().getStartedAt() : now;
                c.setReady(false);
                c.setState(new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewTerminated()
                        .withExitCode(code).withReason(code == 0 ? "Completed" : "Error")
                        .withStartedAt(started).withFinishedAt(now).endTerminated().build());
            });
            return p;
        });
    }

    private static PodCondition condition(String type, String now) {
        return new PodConditionBuilder().withType(type).withStatus("True").withLastTransitionTime(now).build();
    }
}
