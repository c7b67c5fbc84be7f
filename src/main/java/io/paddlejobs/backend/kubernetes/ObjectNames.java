package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.planning.Role;

/**
 * The names of a job's objects. A job name is at most 40 characters, so the longest derived
 * name ({@code <job>-trainer-<index>}) stays under the 63 of a DNS label.
 */
final class ObjectNames {

    private ObjectNames() {
    }

    /** The headless Service, and the DNS subdomain of every replica. */
    static String service(String job) {
        return job;
    }

    /** The Indexed Job of the pservers. */
    static String pserverJob(String job) {
        return job + "-pserver";
    }

    static String trainerJob(String job) {
        return job + "-trainer";
    }

    /** The object that runs a role's replicas. */
    static String workload(String job, Role role) {
        return switch (role) {
            case PSERVER -> pserverJob(job);
            case TRAINER -> trainerJob(job);
        };
    }

    /** A replica pod's hostname, {@code <workload>-<index>}, as an Indexed Job names it (the pod name has a random suffix). */
    static String podHostname(String job, Role role, int index) {
        return workload(job, role) + "-" + index;
    }
}
