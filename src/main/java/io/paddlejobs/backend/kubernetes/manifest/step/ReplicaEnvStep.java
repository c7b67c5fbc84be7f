package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.paddlejobs.backend.kubernetes.KubernetesSite;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The planned environment, shared by every pod of a role. The values that differ per replica
 * are filled in by Kubernetes instead, from the completion index of the role's Indexed Job; it
 * gives exactly the host the planner wrote into the endpoint lists.
 *
 * <p>The per-replica variables come first, because Kubernetes expands {@code $(NAME)} only from
 * variables defined earlier in the list.
 */
public record ReplicaEnvStep(JobPlan plan, Role role) implements PodStep {

    /** What the Job controller itself would add (last, too late to be referred to): defined first here. */
    static final String COMPLETION_INDEX = "JOB_COMPLETION_INDEX";
    static final String TRAINER_ID_V2 = PaddleEnv.V2_PREFIX + "TRAINER_ID";

    @Override
    public PodParts apply(PodParts pod) {
        Map<String, String> planned = plan.replicasOf(role).get(0).env();
        // A collective trainer has no Paddle v2 names: only what it was planned with is set.
        List<EnvVar> env = new ArrayList<>(perReplica().stream()
                .filter(v -> v.getName().equals(COMPLETION_INDEX) || planned.containsKey(v.getName())).toList());
        planned.forEach((name, value) -> {
            if (!isPerReplica(name)) {
                env.add(new EnvVar(name, Expansion.literal(value), null));
            } else if (name.equals(PaddleEnv.POD_IP)) {
                env.add(new EnvVar(name, hostExpression(), null));
            } else if (name.equals(PaddleEnv.CURRENT_ENDPOINT)) {
                env.add(new EnvVar(name, hostExpression() + ":" + plan.ports().first(), null));
            } else if (name.equals(PaddleEnv.RANK)) {
                env.add(new EnvVar(name, Expansion.reference(PaddleEnv.TRAINER_ID), null));
            }
        });
        return pod.withMain(new ContainerBuilder(pod.main()).withEnv(env).build());
    }

    private List<EnvVar> perReplica() {
        return switch (role) {
            case PSERVER -> List.of(fieldRef(COMPLETION_INDEX, completionIndex()));
            case TRAINER -> List.of(
                    fieldRef(PaddleEnv.TRAINER_ID, completionIndex()),
                    fieldRef(TRAINER_ID_V2, completionIndex()));
        };
    }

    /** This replica's host, exactly as {@link KubernetesSite} writes it into the lists. */
    private String hostExpression() {
        String subdomain = "." + ObjectNames.service(plan.name());
        return switch (role) {
            case PSERVER -> ObjectNames.hostPrefix(plan, role) + "-" + Expansion.reference(COMPLETION_INDEX)
                    + subdomain;
            case TRAINER -> ObjectNames.hostPrefix(plan, role) + "-" + Expansion.reference(PaddleEnv.TRAINER_ID)
                    + subdomain;
        };
    }

    private boolean isPerReplica(String name) {
        return name.equals(PaddleEnv.POD_IP) || name.equals(PaddleEnv.CURRENT_ENDPOINT)
                || name.equals(PaddleEnv.TRAINER_ID) || name.equals(TRAINER_ID_V2) || name.equals(PaddleEnv.RANK);
    }

    static String completionIndex() {
        return "metadata.annotations['" + JobLabels.COMPLETION_INDEX_ANNOTATION + "']";
    }

    private static EnvVar fieldRef(String name, String fieldPath) {
        return new EnvVarBuilder().withName(name)
                .withNewValueFrom().withNewFieldRef().withFieldPath(fieldPath).endFieldRef().endValueFrom()
                .build();
    }
}
