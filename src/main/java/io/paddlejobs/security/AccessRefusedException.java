package io.paddlejobs.security;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A caller who may not do what it asked, answered as a problem document by the web layer's advice. */
public class AccessRefusedException extends ErrorResponseException {

    private AccessRefusedException(HttpStatus status) {
        super(status);
    }

    static AccessRefusedException unauthenticated() {
        AccessRefusedException problem = new AccessRefusedException(HttpStatus.UNAUTHORIZED);
        problem.getBody().setType(ProblemType.UNAUTHENTICATED.uri());
        problem.setTitle(AuthProblems.missingToken().getTitle());
        problem.setDetail(AuthProblems.missingToken().getDetail());
        problem.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, AuthProblems.CHALLENGE);
        return problem;
    }

    static AccessRefusedException namespace(Tenant tenant, String namespace, Action action, String whereAllowed) {
        AccessRefusedException problem = new AccessRefusedException(HttpStatus.FORBIDDEN);
        problem.getBody().setType(ProblemType.NAMESPACE_FORBIDDEN.uri());
        problem.setTitle("Namespace not allowed");
        problem.setDetail("User '%s' may not %s jobs in namespace '%s'; %s."
                .formatted(tenant.user(), action.verb(), namespace, whereAllowed));
        problem.getBody().setProperty("namespace", namespace);
        return problem;
    }
}
