package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * The namespace's ResourceQuota has no room for the job: a 403 the user can act on (ask for a
 * smaller job, wait for others to finish, or ask for more quota), with the server's own words.
 */
public class ClusterQuotaException extends ErrorResponseException {

    public ClusterQuotaException(String action, String serverMessage, Throwable cause) {
        super(HttpStatus.FORBIDDEN, org.springframework.http.ProblemDetail.forStatus(HttpStatus.FORBIDDEN), cause);
        getBody().setType(ProblemType.QUOTA_EXCEEDED.uri());
        setTitle("Namespace quota exceeded");
        setDetail("The namespace's quota does not allow this job (" + action + "): " + serverMessage
                + ". Ask for fewer resources, wait for other jobs to finish, or ask for a larger quota."
                + " Nothing was left behind.");
    }
}
