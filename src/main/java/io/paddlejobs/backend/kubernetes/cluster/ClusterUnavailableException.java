package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.problem.ProblemType;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** The Kubernetes API server could not be reached or is overloaded: 503, try again later. */
public class ClusterUnavailableException extends ErrorResponseException {

    /** What the 503 tells the caller to wait: an API server that is back answers within seconds. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    public ClusterUnavailableException(String action, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemDetail.forStatus(HttpStatus.SERVICE_UNAVAILABLE), cause);
        getBody().setType(ProblemType.CLUSTER_UNAVAILABLE.uri());
        setTitle("Cluster unavailable");
        setDetail("The Kubernetes API server did not answer while trying to " + action
                + ". Nothing was left behind; retry in " + RETRY_AFTER.toSeconds() + " s.");
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(RETRY_AFTER.toSeconds()));
    }
}
