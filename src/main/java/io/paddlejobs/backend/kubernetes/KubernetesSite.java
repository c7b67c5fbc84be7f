package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;

/**
 * Replica hosts as the cluster's DNS names them: the headless Service {@code <job>} gives each
 * pod {@code <hostname>.<job>}, where the Indexed Jobs name a pod's host {@code <job>-pserver-<i>}
 * or {@code <job>-trainer-<i>}. Short names resolve from any pod of the
 * same namespace, which is where all of a job's replicas are.
 */
final class KubernetesSite implements Site {

    static final String DATA_PATH = "/data";

    @Override
    public String host(String namespace, String job, Role role, int index) {
        return ObjectNames.podHostname(job, role, index) + "." + ObjectNames.service(job);
    }

    @Override
    public String dataPath(String namespace, String job) {
        return DATA_PATH;
    }
}
