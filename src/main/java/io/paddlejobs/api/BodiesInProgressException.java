package io.paddlejobs.api;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A request body the service will not read now: its caller, or all callers together, send as many as it reads: 429. */
public class BodiesInProgressException extends ErrorResponseException {

    private BodiesInProgressException(String detail, int limit) {
        super(HttpStatus.TOO_MANY_REQUESTS);
        getBody().setType(ProblemType.BODIES_IN_PROGRESS.uri());
        setTitle("Too many request bodies in progress");
        setDetail(detail);
        getBody().setProperty("limit", limit);
        getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
    }

    /** The caller already sends as many bodies at once as the service reads from one caller. */
    public static BodiesInProgressException ofCaller(String caller, int limit) {
        return new BodiesInProgressException(("%s is sending %d request bodies to the service at once, the most it"
                + " reads from one caller (paddlejobs.web.max-bodies-per-caller); send this one once one of them has"
                + " arrived.").formatted(caller, limit), limit);
    }

    /** All callers together send as many bodies at once as the service reads. */
    public static BodiesInProgressException ofAllCallers(int limit) {
        return new BodiesInProgressException(("The service is reading %d request bodies at once, the most it reads"
                + " from all callers together (paddlejobs.web.max-bodies-in-progress); send this one again in a"
                + " moment.").formatted(limit), limit);
    }
}
