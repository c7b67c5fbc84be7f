package io.paddlejobs.security;

import io.paddlejobs.problem.ProblemType;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A caller over their submissions per minute: 429 with {@code Retry-After}. */
public class RateLimitExceededException extends ErrorResponseException {

    private RateLimitExceededException() {
        super(HttpStatus.TOO_MANY_REQUESTS);
    }

    static RateLimitExceededException of(String user, int perMinute, Duration retryAfter) {
        RateLimitExceededException problem = new RateLimitExceededException();
        long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        problem.getBody().setType(ProblemType.SUBMISSION_RATE_LIMIT.uri());
        problem.setTitle("Too many submissions");
        problem.setDetail("User '%s' may submit %d jobs per minute; try again in %d s."
                .formatted(user, perMinute, seconds));
        problem.getBody().setProperty("limit", perMinute);
        problem.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        return problem;
    }
}
