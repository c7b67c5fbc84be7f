package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;

/**
 * Replica hosts as the cluster's DNS names them: the headless Service {@code <job>} gives each
 * pod {@code <hostname>.<job>}, where the Indexed Jobs name a pod's host {@code <job>-pserver-<i>}
 * or {@code <job>-trainer-<i>}; under a JobSet its child Jobs do, {@code <job>-pserver-0-<i>} and
 * {@code <job>-trainer-0-<i>} ({@code <jobset>-<replicatedJob>-<jobIndex>-<podIndex>}). Short names resolve from any pod of the
 * same namespace, which is where all of a job's replicas are.
 */
public final class KubernetesSite implements Site {

    public static final String DATA_PATH = "/data";

    private final boolean jobSet;

    public KubernetesSite() {
        this(false);
    }

    /** @param jobSet whether the job runs as a JobSet */
    public KubernetesSite(boolean jobSet) {
        this.jobSet = jobSet;
    }

    @Override
    public String host(String namespace, String job, Role role, int index) {
        String workload = jobSet ? ObjectNames.jobSetChild(job, role) : ObjectNames.workload(job, role);
        return workload + "-" + index + "." + ObjectNames.service(job);
    }

    @Override
    public String dataPath(String namespace, String job) {
        return DATA_PATH;
    }
}
