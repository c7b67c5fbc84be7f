package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** An object the job needs already exists and belongs to something else: 409, pick another name. */
public class ForeignObjectException extends ErrorResponseException {

    public ForeignObjectException(String kind, String namespace, String name) {
        super(HttpStatus.CONFLICT);
        getBody().setType(ProblemType.CONFLICT.uri());
        setTitle("Object name taken");
        setDetail("A " + kind + " named '" + name + "' already exists in namespace '" + namespace
                + "' and does not belong to this job. Choose another job name, or remove that " + kind + ".");
    }
}
