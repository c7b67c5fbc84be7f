package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * The job history's store cannot be reached: a submit is refused rather than run a job the history
 * would not know; the client may try again once the store is back.
 */
public class HistoryUnavailableException extends ErrorResponseException {

    public HistoryUnavailableException(Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, cause);
        getBody().setType(ProblemType.HISTORY_UNAVAILABLE.uri());
        setTitle("Job history unavailable");
        setDetail("The job history's database cannot be reached, so nothing was started; try again shortly.");
    }
}
