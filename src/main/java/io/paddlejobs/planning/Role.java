package io.paddlejobs.planning;

/** The two kinds of replica in a parameter-server job. */
public enum Role {
    /** Holds a shard of the model's parameters and serves them to trainers. */
    PSERVER,
    /** Reads data, computes gradients and exchanges them with every pserver. */
    TRAINER;

    /** The lower-case form used in URLs, labels and object names. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Role fromLabel(String label) {
        for (Role role : values()) {
            if (role.label().equalsIgnoreCase(label)) {
                return role;
            }
        }
        throw new IllegalArgumentException("role must be pserver or trainer, not '" + label + "'");
    }
}
