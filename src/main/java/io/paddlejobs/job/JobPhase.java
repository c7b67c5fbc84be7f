package io.paddlejobs.job;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where a job is in its life. Written as Kubernetes writes phases: {@code Pending}, {@code Running}, ... */
public enum JobPhase {
    /** Accepted, but not every replica is running yet: queued, scheduling, pulling images or starting. */
    PENDING("Pending"),
    /** Every replica has started and no trainer has failed. */
    RUNNING("Running"),
    /** Every trainer exited 0; the pservers were stopped. Final. */
    SUCCEEDED("Succeeded"),
    /** A replica failed; {@code reason} and {@code message} say which and why. The rest were stopped. Final. */
    FAILED("Failed"),
    /** Stopped on request; the record is kept. Final. */
    CANCELLED("Cancelled");

    private final String wireName;

    JobPhase(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public boolean isFinished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }

    /** Reads {@code Running}, {@code running} or {@code RUNNING}. */
    public static JobPhase parse(String text) {
        for (JobPhase phase : values()) {
            if (phase.wireName.equalsIgnoreCase(text)) {
                return phase;
            }
        }
        throw new IllegalArgumentException("phase must be one of Pending, Running, Succeeded, Failed, Cancelled");
    }
}
