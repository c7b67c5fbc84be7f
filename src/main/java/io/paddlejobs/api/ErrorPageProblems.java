package io.paddlejobs.api;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page: what a filter or the container answered with {@code sendError}, or a filter's
 * exception, reaches the client as a problem document like every answer from a controller
 * (Spring Boot's own page would be {@code {"timestamp", "error"}} JSON or HTML). A query string
 * Tomcat cannot parse is the caller's error: 400, never 500.
 */
@Hidden
@RestController
class ErrorPageProblems implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ErrorPageProblems.class);

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Throwable exception = (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        ProblemDetail problem = exception == null ? sent(request) : thrown(exception);
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (uri instanceof String path) {
            problem.setInstance(URI.create("").resolve(encodedPath(path)));
        }
        return ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }

    private static ProblemDetail sent(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value) : HttpStatus.INTERNAL_SERVER_ERROR;
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setTitle(status.getReasonPhrase());
        problem.setDetail(status.is5xxServerError()
                ? "The service failed to handle this request."
                : "The request was refused before it reached the API (" + status.value() + " " + status.getReasonPhrase() + ").");
        return problem;
    }

    private static ProblemDetail thrown(Throwable exception) {
        if (ProblemAdvice.causeOfType(exception, org.apache.tomcat.util.http.InvalidParameterException.class) != null) {
            return ProblemAdvice.unreadableQuery();
        }
        log.error("Unexpected error outside the controllers", exception);
        return ProblemAdvice.internalError();
    }

    /** The instance is a URI reference: a path with characters a URI may not hold is percent-encoded. */
    private static String encodedPath(String path) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : path.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c > 0x20 && c < 0x7f && "\"<>\\^`{|}%".indexOf(c) < 0) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return encoded.toString();
    }
}
