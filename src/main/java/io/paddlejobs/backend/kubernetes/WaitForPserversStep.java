package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An init container that holds a trainer back until every port of every pserver accepts TCP
 * connections, and fails it (and so the job, with a message saying which pserver) when one does
 * not within the timeout. Trainers that start first would otherwise crash on connect.
 */
record WaitForPserversStep(JobPlan plan, String image, Duration timeout) implements PodStep {

    static final String CONTAINER = "wait-for-pservers";

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
                .build();
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToInitContainers(wait).build());
    }

    /**
     * {@code host:port} of every pserver's first port, in pserver order. Only the first: a Paddle
     * 2.x fleet pserver listens on {@code PADDLE_PORT} alone, so waiting for the sparse ports as
     * well would hold its trainers back until the timeout (Paddle v2 opens them all, first included).
     */
    static List<String> endpoints(JobPlan plan) {
        return plan.replicasOf(Role.PSERVER).stream().map(p -> p.host() + ":" + plan.ports().first()).toList();
    }
}
