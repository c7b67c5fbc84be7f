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

    /**
     * Where the job keeps its checkpoints ({@code PADDLE_JOB_CHECKPOINT_DIR}): a directory of its own on the
     * user's storage, so that it is the same for every attempt and is still there when the job has ended.
     */
    default String checkpointPath(String namespace, String job) {
        return dataPath(namespace, job) + "/checkpoints/" + job;
    }
}
