package io.paddlejobs.planning;

import java.util.Map;

/** One process of the job: its role, index, the host other replicas reach it at, and its full environment. */
public record Replica(Role role, int index, String host, Map<String, String> env) {

    public Replica {
        env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
    }

    /** The replica's name in logs, status and object names: {@code pserver-0}, {@code trainer-2}. */
    public String id() {
        return role.label() + "-" + index;
    }
}
