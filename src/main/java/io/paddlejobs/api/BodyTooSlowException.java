package io.paddlejobs.api;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * A request body that did not arrive within the deadline: a client trickling bytes would otherwise
 * hold a request thread for as long as it likes (on JDK 17 Tomcat has 200 of them).
 */
public class BodyTooSlowException extends ErrorResponseException {

    public BodyTooSlowException(long seconds) {
        super(HttpStatus.REQUEST_TIMEOUT);
        getBody().setType(ProblemType.BODY_TOO_SLOW.uri());
        setTitle("Request body too slow");
        setDetail("The request body must arrive within " + seconds + " s (paddlejobs.web.request-body-timeout).");
    }
}
