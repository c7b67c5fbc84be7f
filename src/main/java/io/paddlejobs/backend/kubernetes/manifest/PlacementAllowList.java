package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.KubernetesSite;
import io.paddlejobs.backend.kubernetes.manifest.step.CodePackageStep;
import io.paddlejobs.backend.kubernetes.manifest.step.HomeStep;
import io.paddlejobs.backend.kubernetes.manifest.step.SharedMemoryStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Where a job's pods may go and what they may mount, as the operator allows each namespace
 * ({@link KubernetesProperties.Placement}): whoever may create pods in a namespace could ask for any
 * node or taint, so the service, which creates them for every tenant, asks for only what the list holds.
 * Requirements that only keep pods away ({@code NotIn}, {@code DoesNotExist}) need no allowance.
 * A volume may not be mounted where the service mounts its own (the data claim, the home, the code).
 */
public final class PlacementAllowList {

    static final String SETTING = "paddlejobs.kubernetes.placement.";

    /** The service's own mounts: an extra volume on or above one would hide it. */
    private static final Set<String> OWN_MOUNTS = Set.of(KubernetesSite.DATA_PATH, SharedMemoryStep.PATH,
            HomeStep.PATH, CodePackageStep.WORKING_DIR, CodePackageStep.FETCH_PATH);

    private PlacementAllowList() {
    }

    public static List<Violation> violations(JobPlan plan, KubernetesProperties.Placement allowed) {
        String namespace = plan.namespace();
        JobRequest.Placement asked = plan.spec().placement();
        List<String> labels = allowed.nodeLabels().getOrDefault(namespace, List.of());
        List<Violation> violations = new ArrayList<>();
        asked.nodeSelector().forEach((key, value) -> {
            if (!labelAllowed(labels, key, value)) {
                violations.add(Violation.of("node_selector." + key, value,
                        notAllowed(namespace, "node label " + key + "=" + value, "node-labels", labels)));
            }
        });
        for (int i = 0; i < asked.nodeAffinity().size(); i++) {
            JobRequest.NodeRequirement r = asked.nodeAffinity().get(i);
            List<String> selected = switch (r.operator()) {
                case "In" -> r.values().stream().filter(v -> !labelAllowed(labels, r.key(), v)).map(v -> r.key() + "=" + v).toList();
                case "Exists" -> labels.contains(r.key()) ? List.of() : List.of(r.key() + " (any value)");
                default -> List.of(); // NotIn, DoesNotExist: only keep pods away
            };
            if (!selected.isEmpty()) {
                violations.add(Violation.of("node_affinity[" + i + "]", r.key(),
                        notAllowed(namespace, "node label " + String.join(", ", selected), "node-labels", labels)));
            }
        }
        List<String> taints = allowed.tolerations().getOrDefault(namespace, List.of());
        for (int i = 0; i < asked.tolerations().size(); i++) {
            JobRequest.Toleration t = asked.tolerations().get(i);
            if (!taints.contains(t.toString()) && !taints.contains(t.key())) {
                violations.add(Violation.of("tolerations[" + i + "]", t.toString(),
                        notAllowed(namespace, "toleration " + t, "tolerations", taints)));
            }
        }
        List<String> volumes = allowed.volumes().getOrDefault(namespace, List.of());
        for (int i = 0; i < asked.volumes().size(); i++) {
            JobRequest.Volume v = asked.volumes().get(i);
            if (!volumes.contains(v.source())) {
                violations.add(Violation.of("volumes[" + i + "]", v.source(),
                        notAllowed(namespace, "volume " + v.source(), "volumes", volumes)));
            }
            String hidden = hides(v.mountPath());
            if (hidden != null) {
                violations.add(Violation.of("volumes[" + i + "].mount_path", v.mountPath(),
                        "would hide or sit inside " + hidden + ", which the service mounts itself: mount it elsewhere"));
            }
        }
        return violations;
    }

    private static boolean labelAllowed(List<String> allowed, String key, String value) {
        return allowed.contains(key + "=" + value) || allowed.contains(key);
    }

    /** The service's own mount that this path is, is above, or is below; {@code null} when none. */
    private static String hides(String mountPath) {
        for (String own : OWN_MOUNTS) {
            if (mountPath.equals(own) || own.startsWith(mountPath + "/") || mountPath.startsWith(own + "/")) {
                return own;
            }
        }
        return null;
    }

    private static String notAllowed(String namespace, String what, String setting, List<String> allowed) {
        return allowed.isEmpty()
                ? "%s is not allowed: the operator allows namespace %s none (%s%s lists nothing for it)"
                        .formatted(what, namespace, SETTING, setting)
                : "%s is not one the operator allows namespace %s (%s%s): %s".formatted(what, namespace, SETTING, setting,
                        String.join(", ", allowed));
    }
}
