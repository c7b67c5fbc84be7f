package io.paddlejobs.backend.kubernetes.manifest.step;

/**
 * Kubernetes expands {@code $(NAME)} in a container's command, args and env values, and turns
 * {@code $$} into {@code $}. Text that must reach the process exactly as written (entry points,
 * the planned environment) is escaped so that neither happens.
 */
final class Expansion {

    private Expansion() {
    }

    static String literal(String text) {
        return text.replace("$", "$$");
    }

    /** A reference to an earlier environment variable of the same container. */
    static String reference(String variable) {
        return "$(" + variable + ")";
    }
}
