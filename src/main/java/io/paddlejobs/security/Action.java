package io.paddlejobs.security;

/** What a caller wants to do in a namespace: the verbs an authorizer decides on. */
public enum Action {
    /** Read jobs: get, status, logs, list. */
    READ("read"),
    SUBMIT("submit"),
    CANCEL("cancel"),
    DELETE("delete");

    private final String verb;

    Action(String verb) {
        this.verb = verb;
    }

    /** Lower case, as in audit lines and in Kubernetes' SubjectAccessReview verbs. */
    public String verb() {
        return verb;
    }
}
