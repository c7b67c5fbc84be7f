package io.paddlejobs.security;

/** What a caller wants to do in a namespace: the verbs an authorizer decides on. */
public enum Action {
    /** Read one job: get, status, logs. */
    READ("read"),
    /** List a namespace's jobs: apart from {@link #READ} because Kubernetes RBAC grants {@code list} apart from {@code get}. */
    LIST("list"),
    SUBMIT("submit"),
    CANCEL("cancel"),
    DELETE("delete");

    private final String verb;

    Action(String verb) {
        this.verb = verb;
    }

    /** Lower case, as in audit lines and problem documents. */
    public String verb() {
        return verb;
    }
}
