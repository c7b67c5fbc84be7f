package io.paddlejobs.security;

import io.paddlejobs.planning.InvalidJobRequestException;
import org.springframework.web.ErrorResponse;

/** How an audited action ended, as its audit line says it ({@code outcome=created}). */
public enum AuditOutcome {
    CREATED("created", 201),
    /** An identical resubmit: the job that was there is answered, nothing is created. */
    EXISTING("existing", 200),
    CANCELLED("cancelled", 200),
    DELETED("deleted", 204),
    /** A command started in a held job's replica (exec): its output and exit code go to the caller, not the line. */
    STARTED("started", 200),
    UNAUTHENTICATED("unauthenticated", 401),
    DENIED("denied", 403),
    NOT_FOUND("not-found", 404),
    CONFLICT("conflict", 409),
    LIMITED("limited", 429),
    /** Any other request error (400, 413, ...): the line's status says which. */
    REJECTED("rejected", 400),
    /** The service or what it drives failed (5xx): the line's status says which. */
    ERROR("error", 500);

    private final String word;
    private final int status;

    AuditOutcome(String word, int status) {
        this.word = word;
        this.status = status;
    }

    /** As written in the line. */
    public String word() {
        return word;
    }

    /** The status an action that ended so answers, unless its error says another. */
    int status() {
        return status;
    }

    /** The status an action that threw this answers: its problem's, else 500. */
    static int statusOf(RuntimeException error) {
        return error instanceof ErrorResponse response ? response.getStatusCode().value()
                : error instanceof InvalidJobRequestException ? 400 : 500;
    }

    /** The outcome of an action that answered this error status. */
    static AuditOutcome ofError(int status) {
        return switch (status) {
            case 401 -> UNAUTHENTICATED;
            case 403 -> DENIED;
            case 404 -> NOT_FOUND;
            case 409 -> CONFLICT;
            case 429 -> LIMITED;
            default -> status >= 500 ? ERROR : REJECTED;
        };
    }
}
