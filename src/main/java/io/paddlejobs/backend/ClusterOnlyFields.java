package io.paddlejobs.backend;

import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * The request fields only a Kubernetes cluster can honour: which nodes the pods go to, the taints they
 * tolerate, the claims and config maps they mount, the size of their {@code /dev/shm}. A backend without
 * pods refuses each by name rather than run the job somewhere it did not ask for.
 */
public final class ClusterOnlyFields {

    private ClusterOnlyFields() {
    }

    /**
     * @param backend its name, as {@code paddlejobs.backend} says it
     * @param where   how that backend places replicas, in words ("runs every replica on this machine")
     */
    public static List<Violation> refused(JobRequest request, String backend, String where) {
        var placement = request.placement();
        List<Violation> violations = new ArrayList<>();
        refuse(violations, "node_selector", !placement.nodeSelector().isEmpty(), placement.nodeSelector(), backend, where);
        refuse(violations, "tolerations", !placement.tolerations().isEmpty(), null, backend, where);
        refuse(violations, "node_affinity", !placement.nodeAffinity().isEmpty(), null, backend, where);
        refuse(violations, "volumes", !placement.volumes().isEmpty(), null, backend, where);
        var shm = request.compute().shmSize();
        refuse(violations, "shm_size", shm != null, shm == null ? null : shm.toString(), backend, where);
        return violations;
    }

    private static void refuse(List<Violation> violations, String field, boolean given, Object value, String backend,
                               String where) {
        if (given) {
            violations.add(Violation.of(field, value, "is for the kubernetes backend; this service's " + backend
                    + " backend " + where + " and cannot honour it: leave " + field + " out"));
        }
    }
}
