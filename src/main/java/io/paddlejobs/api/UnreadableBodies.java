package io.paddlejobs.api;

import io.paddlejobs.problem.ProblemType;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Problem documents for bodies Jackson could not read: a field error where the failure can be
 * pinned on a field (unknown, wrong type, out of range, given twice), else where the JSON broke.
 */
final class UnreadableBodies {

    private UnreadableBodies() {
    }

    static ProblemDetail problem(JacksonException cause) {
        if (cause instanceof UnrecognizedPropertyException unknown) {
            String hint = FieldSuggestions.closest(unknown.getPropertyName(), unknown.getKnownPropertyIds())
                    .map(known -> "; did you mean " + known + "?")
                    .orElse("; the fields are listed in docs/request.md and the API contract (/v3/api-docs)");
            return Problems.invalidRequest(List.of(new FieldError(path(unknown), "is not a known field" + hint, null)));
        }
        if (cause instanceof InvalidFormatException format) {
            return Problems.invalidRequest(List.of(new FieldError(path(format),
                    "must be " + typeName(format.getTargetType()), Problems.rejectedValue(format.getValue()))));
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
        problem.setType(ProblemType.UNREADABLE_BODY.uri());
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
}
