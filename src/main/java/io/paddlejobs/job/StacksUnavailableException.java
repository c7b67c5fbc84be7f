package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * Stacks cannot be taken here: the tool that takes them is not installed (503, until an operator installs it), or
 * this backend cannot take them at all (501).
 */
public class StacksUnavailableException extends ErrorResponseException {

    private StacksUnavailableException(HttpStatus status, ProblemType type, String title, String detail) {
        super(status);
        getBody().setType(type.uri());
        setTitle(title);
        setDetail(detail);
    }

    /** The tool is missing: the detail names the setting that says where it is. */
    public static StacksUnavailableException toolMissing(String detail) {
        return new StacksUnavailableException(HttpStatus.SERVICE_UNAVAILABLE, ProblemType.STACKS_UNAVAILABLE,
                "Stack dumps unavailable", detail);
    }

    /** This backend takes no stacks: the detail says why, and what to do instead. */
    public static StacksUnavailableException notSupported(String detail) {
        return new StacksUnavailableException(HttpStatus.NOT_IMPLEMENTED, ProblemType.STACKS_NOT_SUPPORTED,
                "Stack dumps not supported", detail);
    }
}
