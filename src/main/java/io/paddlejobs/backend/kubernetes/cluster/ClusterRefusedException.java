package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The Kubernetes API server answered, but refused (forbidden, or an error of its own): 502,
 * with the server's own words, which usually say what to change.
 */
public class ClusterRefusedException extends ErrorResponseException {

    public ClusterRefusedException(String action, int code, String serverMessage, Throwable cause) {
        super(HttpStatus.BAD_GATEWAY, ProblemDetail.forStatus(HttpStatus.BAD_GATEWAY), cause);
        getBody().setType(ProblemType.CLUSTER_REFUSED.uri());
        setTitle("Cluster refused the request");
        setDetail("The Kubernetes API server refused to " + action + " (HTTP " + code + "): " + serverMessage
                + ". Nothing was left behind.");
    }
}
