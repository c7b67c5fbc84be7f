package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An init container that holds a pserver back until its own name ({@code POD_IP},
 * {@code <job>-pserver-<i>.<job>}) resolves. The name is not in the pod's {@code /etc/hosts}; it
 * resolves once the job's Service publishes the pod's address, usually a second or two after
 * the pod has one. A pserver that binds to that name at once could otherwise lose the race, and
 * as a pserver is never restarted (its Job has no retries), that would fail the job.
 *
 * <p>Busybox {@code nc} says {@code bad address} for a name it cannot resolve, and something
 * else (refused, timed out) for one it can; nothing needs to listen.
 */
public record ResolveOwnNameStep(JobPlan plan, String image, Duration timeout) implements PodStep {

    public static final String CONTAINER = "wait-for-own-name";

    static final String SCRIPT = """
            deadline=$(( $(date +%s) + $TIMEOUT_SECONDS ))
            while nc -z -w 1 "$1" 9 2>&1 | grep -q "bad address"; do
              if [ "$(date +%s)" -ge "$deadline" ]; then
                echo "this pserver's name $1 did not resolve within ${TIMEOUT_SECONDS}s" >&2
                exit 1
              fi
              sleep 1
            done
            echo "$1 resolves"
            """;

    @Override
    public PodParts apply(PodParts pod) {
        String host = ObjectNames.hostPrefix(plan, Role.PSERVER) + "-" + Expansion.reference(ReplicaEnvStep.COMPLETION_INDEX)
                + "." + ObjectNames.service(plan.name());
        Map<String, Quantity> small = Map.of("cpu", new Quantity("50m"), "memory", new Quantity("32Mi"));
        var wait = new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(image)
                .withCommand(List.of("sh", "-c", Expansion.literal(SCRIPT), CONTAINER, host))
                .addNewEnv().withName(ReplicaEnvStep.COMPLETION_INDEX).withNewValueFrom().withNewFieldRef()
                    .withFieldPath(ReplicaEnvStep.completionIndex()).endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("TIMEOUT_SECONDS").withValue(Long.toString(timeout.toSeconds())).endEnv()
                .withNewResources().withRequests(small).withLimits(small).endResources()
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToInitContainers(wait).build());
    }
}
