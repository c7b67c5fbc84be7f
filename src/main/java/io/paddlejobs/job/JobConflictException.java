package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** The name is taken by a job with a different spec, or the job is in no state for the action. */
public class JobConflictException extends ErrorResponseException {

    public JobConflictException(String title, String detail) {
        super(HttpStatus.CONFLICT);
        getBody().setType(ProblemType.CONFLICT.uri());
        setTitle(title);
        setDetail(detail);
    }

    public static JobConflictException nameTaken(JobKey key) {
        return new JobConflictException("Job name taken",
                "A job named '" + key.name() + "' already exists in namespace '" + key.namespace()
                        + "' with a different spec. Choose another name, or delete that job first.");
    }
}
