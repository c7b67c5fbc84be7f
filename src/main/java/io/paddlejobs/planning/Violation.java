package io.paddlejobs.planning;

import java.util.List;

/**
 * One broken rule: the request fields involved (all of them, for a conflict between fields),
 * what is wrong in words a user can act on, and the value that was rejected.
 */
public record Violation(List<String> fields, String message, Object rejected) {

    public Violation {
        fields = List.copyOf(fields);
    }

    public static Violation of(String field, Object rejected, String message) {
        return new Violation(List.of(field), message, rejected);
    }
}
