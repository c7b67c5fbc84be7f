package io.paddlejobs.api;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A caller already sending as many request bodies at once as the service reads from one caller: 429. */
public class BodiesInProgressException extends ErrorResponseException {

    public BodiesInProgressException(String caller, int limit) {
        super(HttpStatus.TOO_MANY_REQUESTS);
        getBody().setType(ProblemType.BODIES_IN_PROGRESS.uri());
        setTitle("Too many request bodies in progress");
        setDetail(("%s is sending %d request bodies to the service at once, the most it reads from one caller"
                + " (paddlejobs.web.max-bodies-per-caller); send this one once one of them has arrived.")
                .formatted(caller, limit));
        getBody().setProperty("limit", limit);
        getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
    }
}
