package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.problem.ProblemType;
import java.nio.file.Path;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A job's directory on the shared directory cannot be used: where a directory should be on its way
 * there is a link or a file (jobs run as the service's user, so a job of the namespace can have put
 * it there). 409: the files are in a state the request conflicts with, and nothing was followed,
 * written or deleted through it. The paths named are relative to the shared directory.
 */
public class JobFilesUnusableException extends ErrorResponseException {

    JobFilesUnusableException(JobKey key, Path where, String why, Throwable cause) {
        super(HttpStatus.CONFLICT, ProblemDetail.forStatus(HttpStatus.CONFLICT), cause);
        getBody().setType(ProblemType.JOB_FILES_UNUSABLE.uri());
        setTitle("The job's files cannot be used");
        setDetail(("The files of job %s go in jobs/%s/%s on the shared directory, but %s %s: a directory is "
                + "needed there. Nothing was followed, written or deleted through it; a job of namespace %s may "
                + "have put it there, and must put the directory back (or an operator must).")
                .formatted(key.name(), key.namespace(), key.name(), where, why, key.namespace()));
    }
}
