package io.paddlejobs.planning;

import java.util.Map;

/**
 * Environment variables a backend sets in every replica itself, beside the Paddle contract of
 * {@link PaddleEnv}. A user value would be a second definition of the same name: the API server
 * warns about duplicates, and the process would see the user's value while the backend's
 * references ({@code $(POD_NAME)}) still expand the backend's.
 */
public final class BackendEnv {

    private static final Map<String, String> RESERVED = Map.of(
            "POD_NAME", "the replica's pod name",
            "JOB_COMPLETION_INDEX", "the replica's index in its Kubernetes Job");

    private BackendEnv() {
    }

    public static boolean isReserved(String name) {
        return RESERVED.containsKey(name);
    }

    /** What the backend sets the name to, in words. */
    public static String why(String name) {
        return RESERVED.getOrDefault(name, "");
    }
}
