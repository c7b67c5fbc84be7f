package io.paddlejobs.planning;

import java.util.List;
import java.util.Locale;

/**
 * What in a job's life a webhook can be told of ({@code notify}'s {@code events}), written in lower
 * case on the wire ({@code started}, {@code job.started} as a delivery's {@code type}).
 */
public enum JobEvent {
    /** Its replicas were started (once, at the first start). */
    STARTED,
    /** An attempt failed and the job will be started again. */
    RESTARTING,
    /** It ended with every trainer done. */
    SUCCEEDED,
    /** It ended failed. */
    FAILED,
    /** It was cancelled. */
    CANCELLED,
    /** No trainer has printed a line or reported a metric for its {@code stall_timeout}. */
    STALLED;

    /** What a target is told of when it names no events: how the job ended. */
    public static final List<JobEvent> FINAL = List.of(SUCCEEDED, FAILED, CANCELLED);

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the events there are */
    public static JobEvent parse(String text) {
        for (JobEvent event : values()) {
            if (event.wireName().equals(text)) {
                return event;
            }
        }
        throw new IllegalArgumentException(
                "must be one of started, restarting, succeeded, failed, cancelled, stalled");
    }
}
