package io.paddlejobs.api;

import io.paddlejobs.problem.ProblemType;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** Builds the problem documents (RFC 9457) that carry a list of field errors. */
final class Problems {

    private Problems() {
    }

    static ProblemDetail invalidRequest(List<FieldError> errors) {
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
        problem.setType(ProblemType.INVALID_REQUEST.uri());
        problem.setTitle("Invalid job request");
        problem.setDetail(errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " problems with the request; see errors");
        problem.setProperty("errors", errors);
        return problem;
    }

    /** {@code trainerCpu} -> {@code trainer_cpu}: Bean Validation names Java fields, users know JSON names. */
    static String jsonName(String javaName) {
        if (javaName.equals("codePackage")) {
            return "package"; // a Java keyword, so the record names it otherwise
        }
        if (javaName.startsWith("webhooks")) { // notify, a method of every object, cannot name a record component
            return "notify" + jsonName(javaName.substring("webhooks".length()));
        }
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** Echo short scalar values only: a huge or structured rejected value helps nobody. */
    static Object rejectedValue(Object value) {
        if (value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof String s) {
            return s.length() > 200 ? s.substring(0, 200) + "..." : s;
        }
        return null;
    }
}
