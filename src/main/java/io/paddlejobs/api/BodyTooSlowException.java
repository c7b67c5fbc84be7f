package io.paddlejobs.api;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * A request body that did not arrive within the deadline: a client trickling bytes would otherwise
 * hold a request thread for as long as it likes (on JDK 17 Tomcat has 200 of them).
 */
public class BodyTooSlowException extends ErrorResponseException {

    public BodyTooSlowException(long seconds) {
        super(HttpStatus.REQUEST_TIMEOUT);
        getBody().setType(java.net.URI.create("urn:paddlejobs:problem:body-too-slow"));
        setTitle("Request body too slow");
        setDetail("The request body must arrive within " + seconds + " s (paddlejobs.web.request-body-timeout).");
    }
}
