package io.paddlejobs.security;

import io.paddlejobs.problem.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import tools.jackson.databind.json.JsonMapper;

/**
 * What Spring Security's firewall refuses before any filter sees it (an encoded '%', '/' or ';' in
 * the path, a NUL, a path that leaves the root): a 400 problem document that says which rule the
 * request broke, like every other error, instead of the servlet container's own error page.
 */
final class RejectedRequests implements RequestRejectedHandler {

    private final JsonMapper json;

    RejectedRequests(JsonMapper json) {
        this.json = json;
    }

    /**
     * The strict firewall, but with every method let through to Spring MVC, which answers a method
     * a path does not serve with 405 and {@code Allow} (the firewall would answer 400). Nothing here
     * decides access by method alone: the security chain lets only GET through unauthenticated,
     * on its public paths, so an unknown method meets the same authentication as any other.
     */
    static HttpFirewall firewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        return firewall;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException e)
            throws IOException {
        // The firewall's messages name the rule ("... contained a potentially malicious String \"%25\"").
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(ProblemType.REQUEST_REJECTED.uri());
        problem.setTitle("Request rejected");
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }
}
