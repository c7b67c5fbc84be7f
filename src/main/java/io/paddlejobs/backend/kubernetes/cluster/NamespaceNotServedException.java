package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** This service watches only some namespaces; a job elsewhere would run unseen. */
public class NamespaceNotServedException extends ErrorResponseException {

    public NamespaceNotServedException(String namespace) {
        super(HttpStatus.BAD_REQUEST);
        getBody().setType(ProblemType.NAMESPACE_NOT_SERVED.uri());
        setTitle("Namespace not served");
        setDetail("This service does not run jobs in namespace '" + namespace
                + "'; an operator lists the served ones in paddlejobs.kubernetes.namespaces.");
    }
}
