package io.paddlejobs.planning;

import java.util.Locale;

/** What kind of distributed job it is: which replicas it has and which Paddle wiring they get. */
public enum JobMode {
    /** Parameter servers and trainers (Paddle v2, and Paddle 2.x fleet; Paddle 3.1+ has no such mode). */
    PS,
    /** Trainers only, which all-reduce their gradients (Paddle 3.x data parallel). */
    COLLECTIVE;

    /** The lower-case form used in requests: {@code ps}, {@code collective}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static JobMode fromLabel(String label) {
        for (JobMode mode : values()) {
            if (mode.label().equals(label)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("mode must be ps or collective, not '" + label + "'");
    }
}
