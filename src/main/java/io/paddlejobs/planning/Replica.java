package io.paddlejobs.planning;

import java.util.Comparator;
import java.util.Map;

/** One process of the job: its role, index, the host other replicas reach it at, and its full environment. */
public record Replica(Role role, int index, String host, Map<String, String> env) {

    /** Replica ids by role, then by index as a number: {@code trainer-2} before {@code trainer-10}. */
    public static final Comparator<String> ID_ORDER = Comparator.comparing(Replica::rolePart)
            .thenComparingInt(Replica::indexPart);

    public Replica {
        env = env instanceof ArrayEnv kept ? kept : new ArrayEnv(env);
    }

    /** The replica's name in logs, status and object names: {@code pserver-0}, {@code trainer-2}. */
    public String id() {
        return idOf(role, index);
    }

    /** The id of the replica {@code index} of {@code role}, the one spelling of {@code role-index}. */
    public static String idOf(Role role, int index) {
        return role.label() + "-" + index;
    }

    private static String rolePart(String id) {
        return id.substring(0, id.lastIndexOf('-') + 1);
    }

    /** The index of an id, or -1 when it has none. */
    private static int indexPart(String id) {
        try {
            return Integer.parseInt(id.substring(id.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
