package io.paddlejobs.api;

import io.paddlejobs.planning.InvalidJobRequest;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Every error leaves as a problem document ({@code application/problem+json}) a user can act
 * on: request errors name each field and its rule, and nothing internal (class names, stack
 * traces) leaks out.
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(InvalidJobRequest.class)
    ProblemDetail invalidJob(InvalidJobRequest e) {
        List<FieldError> errors = new ArrayList<>();
        for (var violation : e.violations()) {
            String message = violation.fields().size() > 1
                    ? violation.message() + " (fields: " + String.join(", ", violation.fields()) + ")"
                    : violation.message();
            violation.fields().forEach(field -> errors.add(new FieldError(field, message, violation.rejected())));
        }
        return Problems.invalidRequest(errors);
    }

    @ExceptionHandler(BodyTooLargeException.class)
    ProblemDetail bodyTooLarge(BodyTooLargeException e) {
        return e.getBody();
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail parameterType(MethodArgumentTypeMismatchException e) {
        return Problems.invalidRequest(List.of(new FieldError(e.getName(), "has the wrong type", e.getValue())));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail illegalArgument(IllegalArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(Problems.INVALID_REQUEST);
        problem.setTitle("Invalid request");
        return problem;
    }

    /** The last resort: logged in full for operators, reported without internals to users. */
    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("Unexpected error", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "The service failed to handle this request; the error has been logged.");
        problem.setTitle("Internal error");
        return problem;
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = new ArrayList<>();
        e.getBindingResult().getFieldErrors().forEach(error -> errors.add(new FieldError(
                Problems.jsonName(error.getField()), error.getDefaultMessage(), rejectedValue(error.getRejectedValue()))));
        e.getBindingResult().getGlobalErrors().forEach(error ->
                errors.add(new FieldError(error.getObjectName(), error.getDefaultMessage(), null)));
        return ResponseEntity.badRequest().body(Problems.invalidRequest(errors));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = e.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream().map(error -> new FieldError(
                        result.getMethodParameter().getParameterName(), error.getDefaultMessage(),
                        rejectedValue(result.getArgument()))))
                .collect(Collectors.toList());
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
        return ResponseEntity.badRequest().body(unreadable(causeOfType(e, JacksonException.class)));
    }

    private static <T extends Throwable> T causeOfType(Throwable e, Class<T> type) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    private static ProblemDetail unreadable(Throwable cause) {
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return Problems.invalidRequest(List.of(new FieldError(path(unknown),
                    "is not a field of a job request; known fields are listed in the API contract (/v3/api-docs)", null)));
        }
        if (cause instanceof InvalidFormatException format) {
            return Problems.invalidRequest(List.of(new FieldError(path(format),
                    "must be " + typeName(format.getTargetType()), rejectedValue(format.getValue()))));
        }
        if (cause instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()) {
            return Problems.invalidRequest(List.of(new FieldError(path(mismatch),
                    "must be " + typeName(mismatch.getTargetType()), null)));
        }
        if (cause instanceof InputCoercionException coercion && fieldAt(coercion.processor()) != null) {
            return Problems.invalidRequest(List.of(new FieldError(fieldAt(coercion.processor()),
                    "must be " + typeName(coercion.getTargetType()) + " in range", null)));
        }
        if (cause instanceof StreamReadException read && fieldAt(read.processor()) != null
                && read.getOriginalMessage().startsWith("Duplicate Object property")) {
            return Problems.invalidRequest(List.of(new FieldError(fieldAt(read.processor()),
                    "is given more than once; give each field once", null)));
        }
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
        problem.setType(URI.create("urn:paddlejobs:problem:unreadable-body"));
        problem.setTitle("Unreadable request body");
        problem.setDetail(cause instanceof StreamReadException read && read.getLocation() != null
                ? "The body is not valid JSON (line %d, column %d): %s".formatted(read.getLocation().getLineNr(),
                        read.getLocation().getColumnNr(), read.getOriginalMessage())
                : "The body must be one JSON object describing the job.");
        return problem;
    }

    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "(body)" : path.toString();
    }

    /** Where the parser stopped, as a request field ({@code env.A}); null outside any object. */
    private static String fieldAt(JsonParser parser) {
        List<String> names = new ArrayList<>();
        for (TokenStreamContext context = parser == null ? null : parser.streamReadContext(); context != null;
                context = context.getParent()) {
            if (context.inObject() && context.currentName() != null) {
                names.add(0, context.currentName());
            }
        }
        return names.isEmpty() ? null : String.join(".", names);
    }

    private static String typeName(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Integer.class || type == int.class || type == Long.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (java.util.Map.class.isAssignableFrom(type)) {
            return "an object of string values";
        }
        return "a JSON object";
    }

    /** Echo short scalar values only: a huge or structured rejected value helps nobody. */
    private static Object rejectedValue(Object value) {
        if (value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof String s) {
            return s.length() > 200 ? s.substring(0, 200) + "..." : s;
        }
        return null;
    }
}
