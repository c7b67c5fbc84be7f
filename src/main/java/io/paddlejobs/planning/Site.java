package io.paddlejobs.planning;

/**
 * Where a job's replicas live, as the backend that runs them names it. The planner writes these
 * names into every replica's environment, so they must be what the replicas can actually reach.
 */
public interface Site {

    /** The host of one replica, written exactly as it appears in the endpoint lists. */
    String host(String namespace, String job, Role role, int index);

    /** Where the user's data is, as seen from inside a replica ({@code PADDLE_JOB_DATA}). */
    String dataPath(String namespace, String job);
}
