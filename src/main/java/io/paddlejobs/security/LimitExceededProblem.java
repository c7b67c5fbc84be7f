package io.paddlejobs.security;

import java.net.URI;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A submit over one of the caller's limits: 429, saying which limit, with {@code Retry-After} when it is known. */
public class LimitExceededProblem extends ErrorResponseException {

    private LimitExceededProblem() {
        super(HttpStatus.TOO_MANY_REQUESTS);
    }

    static LimitExceededProblem rate(String user, int perMinute, Duration retryAfter) {
        LimitExceededProblem problem = new LimitExceededProblem();
        long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        problem.getBody().setType(URI.create("urn:paddlejobs:problem:submission-rate-limit"));
        problem.setTitle("Too many submissions");
        problem.setDetail("User '%s' may submit %d jobs per minute; try again in %d s."
                .formatted(user, perMinute, seconds));
        problem.getBody().setProperty("limit", perMinute);
        problem.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        return problem;
    }

    static LimitExceededProblem gpusInUse(String namespace, int max, long inUse, int requested) {
        LimitExceededProblem problem = new LimitExceededProblem();
        problem.getBody().setType(URI.create("urn:paddlejobs:problem:gpus-in-use-limit"));
        problem.setTitle("Too many GPUs in use");
        problem.setDetail(("Namespace '%s' has %d GPUs held by pending or running jobs and this job asks for %d more; "
                + "at most %d may be in use. Ask for fewer, or submit again when a job has finished.")
                .formatted(namespace, inUse, requested, max));
        problem.getBody().setProperty("limit", max);
        return problem;
    }

    static LimitExceededProblem unfinishedJobs(String namespace, int max) {
        LimitExceededProblem problem = new LimitExceededProblem();
        problem.getBody().setType(URI.create("urn:paddlejobs:problem:unfinished-jobs-limit"));
        problem.setTitle("Too many unfinished jobs");
        problem.setDetail(("Namespace '%s' already has %d pending or running jobs, the most allowed; "
                + "submit again when one has finished, or cancel one.").formatted(namespace, max));
        problem.getBody().setProperty("limit", max);
        return problem;
    }
}
