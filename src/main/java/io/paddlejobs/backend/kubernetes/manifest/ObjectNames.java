package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.backend.kubernetes.KubernetesSite;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;

/**
 * The names of a job's objects. A job name is at most 40 characters, so the longest derived
 * name ({@code <job>-trainer-<index>}) stays under the 63 of a DNS label.
 */
public final class ObjectNames {

    private ObjectNames() {
    }

    /** The headless Service, and the DNS subdomain of every replica. */
    public static String service(String job) {
        return job;
    }

    /** The Indexed Job of the pservers. */
    public static String pserverJob(String job) {
        return job + "-pserver";
    }

    public static String trainerJob(String job) {
        return job + "-trainer";
    }

    /** The Volcano PodGroup of a gang-scheduled job ({@link VolcanoGroups}). */
    public static String podGroup(String job) {
        return job;
    }

    /** The object that runs a role's replicas. */
    public static String workload(String job, Role role) {
        return switch (role) {
            case PSERVER -> pserverJob(job);
            case TRAINER -> trainerJob(job);
        };
    }

    /**
     * The child Job a JobSet {@code <job>} makes for a role: {@code <jobset>-<replicatedJob>-<jobIndex>}, with one
     * Job per replicated job ({@code replicas: 1}), so always index 0.
     */
    public static String jobSetChild(String job, Role role) {
        return workload(job, role) + "-0";
    }

    /**
     * What a replica's hostname starts with in this plan ({@code <prefix>-<index>}): the Indexed Job's name, which
     * the plan's hosts tell ({@link KubernetesSite} wrote them for one workload or the other).
     */
    public static String hostPrefix(JobPlan plan, Role role) {
        String child = jobSetChild(plan.name(), role);
        boolean inJobSet = plan.replicas().stream().filter(r -> r.role() == role).findFirst()
                .map(r -> r.host().startsWith(child + "-")).orElse(false);
        return inJobSet ? child : workload(plan.name(), role);
    }

    /** A replica pod's hostname, {@code <workload>-<index>}, as an Indexed Job names it (the pod name has a random suffix). */
    public static String podHostname(String job, Role role, int index) {
        return workload(job, role) + "-" + index;
    }
}
