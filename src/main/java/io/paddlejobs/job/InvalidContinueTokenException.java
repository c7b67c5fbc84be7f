package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A {@code continue} token this service did not hand out. */
public class InvalidContinueTokenException extends ErrorResponseException {

    public InvalidContinueTokenException() {
        super(HttpStatus.BAD_REQUEST);
        getBody().setType(ProblemType.INVALID_CONTINUE.uri());
        setTitle("Invalid continue token");
        setDetail("The continue parameter must be a token from a previous list response.");
    }
}
