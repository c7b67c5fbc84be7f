package io.paddlejobs.api;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A request body over the size a job request can sensibly have. */
public class BodyTooLargeException extends ErrorResponseException {

    public BodyTooLargeException(long limit) {
        super(HttpStatus.CONTENT_TOO_LARGE);
        getBody().setType(ProblemType.BODY_TOO_LARGE.uri());
        setTitle("Request body too large");
        setDetail("A job request may be at most " + limit / 1024 + " KiB.");
    }
}
