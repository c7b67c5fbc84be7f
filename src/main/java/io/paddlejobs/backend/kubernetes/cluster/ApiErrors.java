package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.springframework.web.ErrorResponseException;

/** Turns what the client throws into the problem a user gets. */
public final class ApiErrors {

    static final int CONFLICT = 409;
    static final int INVALID = 422;

    private ApiErrors() {
    }

    /**
     * Unreachable, timed out or overloaded is "try again" (503); a quota refusal is the user's
     * (403); an object the server finds invalid was made from bad input (400); any other answer
     * is a refusal (502).
     */
    public static ErrorResponseException translate(KubernetesClientException e, String action) {
        int code = e.getCode();
        if (code <= 0 || code == 429 || code == 503 || code == 504) {
            return new ClusterUnavailableException(action, e);
        }
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : e.getMessage();
        // Quota refusals are 403s whose message says "exceeded quota"; they are the user's to act on.
        if (code == 403 && message != null && message.contains("exceeded quota")) {
            return new ClusterQuotaException(action, message, e);
        }
        if (code == INVALID) {
            return new ClusterInvalidException(action, e.getStatus(), message, e);
        }
        return new ClusterRefusedException(action, code, message, e);
    }

    static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == CONFLICT;
    }
}
