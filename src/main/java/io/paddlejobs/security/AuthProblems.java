package io.paddlejobs.security;

import io.paddlejobs.problem.ProblemType;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answers to a caller who is not let in, as problem documents like every other error: 401
 * with {@code WWW-Authenticate: Bearer} (RFC 6750) when no token or a wrong one was sent, 403
 * when the token is good but does not reach what was asked.
 */
final class AuthProblems {

    static final String CHALLENGE = "Bearer realm=\"paddle-jobs\"";

    private final JsonMapper json;
    private final AuditLog audit;

    AuthProblems(JsonMapper json, AuditLog audit) {
        this.json = json;
        this.audit = audit;
    }

    static ProblemDetail missingToken() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED,
                "This service needs a bearer token: send 'Authorization: Bearer <token>'.");
        problem.setType(ProblemType.UNAUTHENTICATED.uri());
        problem.setTitle("Authentication required");
        return problem;
    }

    AuthenticationEntryPoint entryPoint() {
        return (request, response, e) -> {
            audit.unauthenticated(request);
            write(response, missingToken(), CHALLENGE);
        };
    }

    /** A token was sent but is none of the known ones. */
    void invalidToken(jakarta.servlet.http.HttpServletRequest request, HttpServletResponse response) throws IOException {
        audit.unauthenticated(request);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED,
                "The bearer token is not valid.");
        problem.setType(ProblemType.UNAUTHENTICATED.uri());
        problem.setTitle("Invalid token");
        write(response, problem, CHALLENGE + ", error=\"invalid_token\"");
    }

    AccessDeniedHandler accessDeniedHandler() {
        return (request, response, e) -> {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN,
                    "Your token does not allow this request.");
            problem.setType(ProblemType.FORBIDDEN.uri());
            problem.setTitle("Forbidden");
            write(response, problem, null);
        };
    }

    private void write(HttpServletResponse response, ProblemDetail problem, String challenge) throws IOException {
        response.setStatus(problem.getStatus());
        if (challenge != null) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge);
        }
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        // Written, not closed: a refused request's body is unread, and its answer is to close the connection
        response.getOutputStream().write(json.writeValueAsBytes(problem));
    }
}
