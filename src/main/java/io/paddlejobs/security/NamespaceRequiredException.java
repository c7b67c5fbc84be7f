package io.paddlejobs.security;

import io.paddlejobs.problem.ProblemType;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * A request that names no namespace from a caller who has no default one (mode {@code kubernetes}
 * knows a default only from {@code paddlejobs.security.kubernetes.default-namespaces}): a 400
 * naming the {@code namespace} parameter, like every other request error.
 */
public class NamespaceRequiredException extends ErrorResponseException {

    private NamespaceRequiredException() {
        super(HttpStatus.BAD_REQUEST);
    }

    static NamespaceRequiredException of(Tenant tenant) {
        NamespaceRequiredException problem = new NamespaceRequiredException();
        String message = "User '%s' has no default namespace: name one with the namespace parameter (?namespace=...)."
                .formatted(tenant.user());
        problem.getBody().setType(ProblemType.NAMESPACE_REQUIRED.uri());
        problem.setTitle("Namespace required");
        problem.setDetail(message);
        problem.getBody().setProperty("errors", List.of(Map.of("field", "namespace", "message",
                "required: you have no default namespace")));
        return problem;
    }
}
