package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An init container that holds a trainer back until every pserver endpoint the trainers will dial
 * accepts TCP connections, and fails it (and so the job, with a message saying which pserver) when
 * one does not within the timeout. Trainers that start first would otherwise crash on connect.
 *
 * <p>Only the entries of {@code PADDLE_PSERVERS_IP_PORT_LIST} are waited for: a Paddle 2.x fleet
 * pserver listens on exactly that one endpoint, and only the legacy v2 pserver opens the further
 * dense and sparse ports, which a waiter must not insist on.
 */
public record WaitForPserversStep(JobPlan plan, String image, Duration timeout) implements PodStep {

    public static final String CONTAINER = "wait-for-pservers";

    /** Endpoints arrive as arguments ({@code "$@"}), so the script itself never changes. */
    static final String SCRIPT = """
            deadline=$(( $(date +%s) + $TIMEOUT_SECONDS ))
            for endpoint in "$@"; do
              host=${endpoint%:*}
              port=${endpoint##*:}
              until nc -z -w 2 "$host" "$port" 2>/dev/null; do
                if [ "$(date +%s)" -ge "$deadline" ]; then
                  echo "pserver $endpoint did not accept connections within ${TIMEOUT_SECONDS}s" >&2
                  exit 1
                fi
                sleep 1
              done
              echo "pserver $endpoint is up"
            done
            """;

    @Override
    public PodParts apply(PodParts pod) {
        List<String> endpoints = endpoints(plan);
        if (endpoints.isEmpty()) {
            return pod;
        }
        List<String> command = new ArrayList<>(List.of("sh", "-c", Expansion.literal(SCRIPT), CONTAINER));
        endpoints.forEach(endpoint -> command.add(Expansion.literal(endpoint)));
        Map<String, Quantity> small = Map.of("cpu", new Quantity("50m"), "memory", new Quantity("32Mi"));
        var wait = new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(image)
                .withCommand(command)
                .addNewEnv().withName("TIMEOUT_SECONDS").withValue(Long.toString(timeout.toSeconds())).endEnv()
                .withNewResources().withRequests(small).withLimits(small).endResources()
                // Its last words ("pserver X did not accept connections ...") become the pod's status.
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToInitContainers(wait).build());
    }

    /** The {@code host:port} entries of the trainers' {@code PADDLE_PSERVERS_IP_PORT_LIST}, in pserver order. */
    static List<String> endpoints(JobPlan plan) {
        List<Replica> trainers = plan.replicasOf(Role.TRAINER);
        String list = trainers.isEmpty() ? null : trainers.get(0).env().get(PaddleEnv.PSERVERS_IP_PORT_LIST);
        if (list == null || list.isBlank()) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::trim).filter(entry -> !entry.isEmpty()).toList();
    }
}
