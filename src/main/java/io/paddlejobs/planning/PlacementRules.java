package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What each toleration, node requirement and volume must say besides its own fields' syntax, as the API
 * server would check it: a 400 naming the item at submit and in a dry run, rather than the cluster's
 * refusal of the first object created.
 */
final class PlacementRules {

    private PlacementRules() {
    }

    static List<Violation> check(JobRequest.Placement placement) {
        List<Violation> violations = new ArrayList<>();
        for (int i = 0; i < placement.tolerations().size(); i++) {
            JobRequest.Toleration t = placement.tolerations().get(i);
            if ("Exists".equals(t.operator()) && t.value() != null && !t.value().isEmpty()) {
                violations.add(Violation.of("tolerations[" + i + "].value", t.value(),
                        "a toleration with operator Exists matches every value: leave value out, or use Equal"));
            }
        }
        for (int i = 0; i < placement.nodeAffinity().size(); i++) {
            JobRequest.NodeRequirement r = placement.nodeAffinity().get(i);
            boolean listsValues = r.operator().equals("In") || r.operator().equals("NotIn");
            if (listsValues && r.values().isEmpty()) {
                violations.add(Violation.of("node_affinity[" + i + "].values", null,
                        "operator " + r.operator() + " needs at least one value"));
            } else if (!listsValues && !r.values().isEmpty()) {
                violations.add(Violation.of("node_affinity[" + i + "].values", r.values(),
                        "operator " + r.operator() + " takes no values: leave values out"));
            }
        }
        Set<String> mountPaths = new HashSet<>();
        for (int i = 0; i < placement.volumes().size(); i++) {
            JobRequest.Volume v = placement.volumes().get(i);
            if ((v.claim() == null) == (v.configMap() == null)) {
                violations.add(new Violation(List.of("volumes[" + i + "].claim", "volumes[" + i + "].config_map"),
                        "give one of claim and config_map", null));
            }
            if (!mountPaths.add(v.mountPath())) {
                violations.add(Violation.of("volumes[" + i + "].mount_path", v.mountPath(),
                        "another volume is mounted there already"));
            }
        }
        return violations;
    }
}
