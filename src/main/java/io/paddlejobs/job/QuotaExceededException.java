package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A submit that would take its namespace past its {@link Quota}: 429, saying which limit and by how much. */
public class QuotaExceededException extends ErrorResponseException {

    private QuotaExceededException(ProblemType type, String title, String detail, int limit) {
        super(HttpStatus.TOO_MANY_REQUESTS);
        getBody().setType(type.uri());
        setTitle(title);
        setDetail(detail);
        getBody().setProperty("limit", limit);
    }

    static QuotaExceededException gpusInUse(String namespace, int max, long inUse, int requested) {
        return new QuotaExceededException(ProblemType.GPUS_IN_USE_LIMIT, "Too many GPUs in use",
                ("Namespace '%s' has %d GPUs held by pending or running jobs and this job asks for %d more; "
                        + "at most %d may be in use. Ask for fewer, or submit again when a job has finished.")
                        .formatted(namespace, inUse, requested, max), max);
    }

    static QuotaExceededException unfinishedJobs(String namespace, int max) {
        return new QuotaExceededException(ProblemType.UNFINISHED_JOBS_LIMIT, "Too many unfinished jobs",
                ("Namespace '%s' already has %d pending or running jobs, the most allowed; "
                        + "submit again when one has finished, or cancel one.").formatted(namespace, max), max);
    }
}
