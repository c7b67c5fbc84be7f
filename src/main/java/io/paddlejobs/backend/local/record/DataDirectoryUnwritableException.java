package io.paddlejobs.backend.local.record;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A submit refused because the service may not write its data directory (its owner or mode changed,
 * or its file system went read-only after an error): 503, since no caller can fix it and deleting
 * jobs, which a full disk asks for, would not help. Nothing was created. The directory is named in
 * the service's log, not to the caller.
 */
public class DataDirectoryUnwritableException extends ErrorResponseException {

    public DataDirectoryUnwritableException(JobKey key, String why, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemDetail.forStatus(HttpStatus.SERVICE_UNAVAILABLE), cause);
        getBody().setType(ProblemType.DATA_DIRECTORY_UNWRITABLE.uri());
        setTitle("The service cannot write its data directory");
        setDetail(("Job %s was not created: the service may not write its data directory (%s). Nothing was left "
                + "behind. An operator must make the directory of paddlejobs.local.data-root writable by the service; "
                + "the service's log names it.").formatted(key.name(), why));
    }
}
