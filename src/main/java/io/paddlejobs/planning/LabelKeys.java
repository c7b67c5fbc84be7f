package io.paddlejobs.planning;

import java.util.Set;

/**
 * The label keys a user's {@code labels} may not set, in one place as {@link PaddleEnv#isReserved}
 * is for env names: the keys the service creates and selects a job's objects by, and Kubernetes'
 * own. A user value for either would break selection (or the API server would refuse the Job).
 */
public final class LabelKeys {

    /** The prefix of every key and annotation of the service's own. */
    public static final String PREFIX = "paddlejobs.io";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String NAME = "app.kubernetes.io/name";
    public static final String ROLE = PREFIX + "/role";

    /** Unprefixed keys the Job controller still sets on its pods (and selects them by). */
    private static final Set<String> LEGACY_KUBERNETES_KEYS = Set.of("job-name", "controller-uid");

    private LabelKeys() {
    }

    /** Whether the service sets {@code key} itself: its own prefix and the two well-known keys it uses. */
    public static boolean isOurs(String key) {
        return PREFIX.equals(prefixOf(key)) || key.equals(NAME) || key.equals(MANAGED_BY);
    }

    /** Whether Kubernetes sets {@code key}: under {@code kubernetes.io} or {@code k8s.io} (and subdomains), or a legacy key. */
    public static boolean isKubernetes(String key) {
        String prefix = prefixOf(key);
        return LEGACY_KUBERNETES_KEYS.contains(key) || prefix != null && (prefix.equals("kubernetes.io")
                || prefix.endsWith(".kubernetes.io") || prefix.equals("k8s.io") || prefix.endsWith(".k8s.io"));
    }

    /** Whether a user may not set {@code key}. */
    public static boolean isReserved(String key) {
        return isOurs(key) || isKubernetes(key);
    }

    private static String prefixOf(String key) {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? null : key.substring(0, slash);
    }
}
