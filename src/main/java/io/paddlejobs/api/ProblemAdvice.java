package io.paddlejobs.api;

import io.paddlejobs.job.InvalidContinueTokenException;
import io.paddlejobs.planning.InvalidJobRequestException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.Errors;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Every error leaves as a problem document ({@code application/problem+json}) a user can act
 * on: request errors name each field and its rule, and nothing internal (class names, stack
 * traces) leaks out.
 */
@RestControllerAdvice
public class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(InvalidJobRequestException.class)
    ProblemDetail invalidJob(InvalidJobRequestException e) {
        List<FieldError> errors = new ArrayList<>();
        for (var violation : e.violations()) {
            String message = violation.fields().size() > 1
                    ? violation.message() + " (fields: " + String.join(", ", violation.fields()) + ")"
                    : violation.message();
            violation.fields().forEach(field -> errors.add(new FieldError(field, message, e.rejected(violation, field))));
        }
        return Problems.invalidRequest(errors);
    }

    @ExceptionHandler(InvalidParameterException.class)
    ProblemDetail invalidParameter(InvalidParameterException e) {
        return Problems.invalidRequest(List.of(e.error()));
    }

    @ExceptionHandler(InvalidContinueTokenException.class)
    ProblemDetail invalidContinueToken(InvalidContinueTokenException e) {
        ProblemDetail problem = e.getBody();
        problem.setProperty("errors", List.of(new FieldError("continue", problem.getDetail(), null)));
        return problem;
    }

    @ExceptionHandler(BodyTooLargeException.class)
    ProblemDetail bodyTooLarge(BodyTooLargeException e) {
        return e.getBody();
    }

    /** A query string Tomcat cannot parse: a parameter without a name ({@code ?=x}), a bad %-escape. */
    @ExceptionHandler(org.apache.tomcat.util.http.InvalidParameterException.class)
    ProblemDetail unreadableQuery(org.apache.tomcat.util.http.InvalidParameterException e) {
        return unreadableQuery();
    }

    public static ProblemDetail unreadableQuery() {
        return Problems.invalidRequest(List.of(new FieldError("query", "must be name=value pairs, each name not empty, "
                + "with every % followed by two hex digits of UTF-8", null)));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail parameterType(MethodArgumentTypeMismatchException e) {
        return Problems.invalidRequest(List.of(new FieldError(e.getName(), "has the wrong type", e.getValue())));
    }

    /** The last resort: logged in full for operators, reported without internals to users. */
    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("Unexpected error", e);
        return internalError();
    }

    static ProblemDetail internalError() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "The service failed to handle this request; the error has been logged.");
        problem.setTitle("Internal error");
        return problem;
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = new ArrayList<>();
        addBodyErrors(e.getBindingResult(), errors);
        return invalid(errors);
    }

    /**
     * A constrained query or path parameter ({@code limit}, {@code namespace}, ...), and the body of a
     * method that has both: Spring MVC validates them itself (no controller carries {@code @Validated},
     * which would validate them a second way).
     */
    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = new ArrayList<>();
        e.getBeanResults().forEach(body -> addBodyErrors(body, errors));
        e.getValueResults().forEach(result -> result.getResolvableErrors().forEach(error -> errors.add(new FieldError(
                parameterName(result.getMethodParameter()), error.getDefaultMessage(),
                Problems.rejectedValue(result.getArgument())))));
        return invalid(errors);
    }

    private static void addBodyErrors(Errors body, List<FieldError> errors) {
        body.getFieldErrors().forEach(error -> errors.add(new FieldError(
                Problems.jsonName(error.getField()), error.getDefaultMessage(), Problems.rejectedValue(error.getRejectedValue()))));
        body.getGlobalErrors().forEach(error ->
                errors.add(new FieldError(error.getObjectName(), error.getDefaultMessage(), null)));
    }

    private static ResponseEntity<Object> invalid(List<FieldError> errors) {
        // Bean Validation reports in no particular order; the same request should get the same document.
        errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
        return ResponseEntity.badRequest().body(Problems.invalidRequest(errors));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // Jackson wraps what the capped stream throws mid-document, so look through the whole chain.
        BodyTooLargeException tooLarge = causeOfType(e, BodyTooLargeException.class);
        if (tooLarge != null) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(tooLarge.getBody());
        }
        BodyTooSlowException tooSlow = causeOfType(e, BodyTooSlowException.class);
        if (tooSlow != null) {
            return ResponseEntity.status(HttpStatus.REQUEST_TIMEOUT).body(tooSlow.getBody());
        }
        return ResponseEntity.badRequest().body(UnreadableBodies.problem(causeOfType(e, JacksonException.class)));
    }

    /**
     * A body of another type (curl's {@code -d} sends a form) says which type to send, the most
     * common first mistake with curl; Spring's own answer only says what was wrong.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = e.getBody();
        MediaType wanted = e.getSupportedMediaTypes().stream().filter(type -> !type.isWildcardSubtype())
                .findFirst().orElse(null);
        if (wanted != null) {
            String sent = e.getContentType() == null ? "No Content-Type" : "Content-Type '" + e.getContentType() + "'";
            problem.setDetail("%s is not read here; send the body as %s (curl: -H 'Content-Type: %s')"
                    .formatted(sent, wanted, wanted));
        }
        return handleExceptionInternal(e, problem, headers, status, request);
    }

    /** The first of {@code e}'s causes, {@code e} itself included, that is a {@code type}. */
    static <T extends Throwable> T causeOfType(Throwable e, Class<T> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    /** The name the client sent: a {@code @RequestParam}'s or {@code @PathVariable}'s own, else the Java name's JSON form. */
    private static String parameterName(MethodParameter parameter) {
        RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
        if (param != null && !param.name().isEmpty()) {
            return param.name();
        }
        PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
        if (path != null && !path.name().isEmpty()) {
            return path.name();
        }
        return Problems.jsonName(parameter.getParameterName());
    }
}
