package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** No job of that name in that namespace (or none the caller may see). */
public class JobNotFoundException extends ErrorResponseException {

    public JobNotFoundException(JobKey key) {
        super(HttpStatus.NOT_FOUND);
        getBody().setType(ProblemType.JOB_NOT_FOUND.uri());
        setTitle("Job not found");
        setDetail("There is no job '" + key.name() + "' in namespace '" + key.namespace() + "'.");
    }
}
