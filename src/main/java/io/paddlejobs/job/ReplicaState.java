package io.paddlejobs.job;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where one replica is in its life. */
public enum ReplicaState {
    /** Not started yet: queued, scheduling or pulling its image. */
    PENDING("Pending"),
    /** Its process is running. */
    RUNNING("Running"),
    /** Exited 0. */
    SUCCEEDED("Succeeded"),
    /** Exited non-zero or was killed by a signal it was not sent by us. */
    FAILED("Failed"),
    /** Stopped by the service: the job finished, failed elsewhere or was cancelled. */
    STOPPED("Stopped");

    private final String wireName;

    ReplicaState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
