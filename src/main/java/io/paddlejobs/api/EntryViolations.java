package io.paddlejobs.api;

import jakarta.validation.ConstraintValidatorContext;

/** Reports each bad map entry as its own error, its message starting with the entry's key. */
final class EntryViolations {

    private final ConstraintValidatorContext context;
    private boolean any;

    EntryViolations(ConstraintValidatorContext context) {
        this.context = context;
        context.disableDefaultConstraintViolation();
    }

    void onEntry(String key, String message) {
        any = true;
        context.buildConstraintViolationWithTemplate(escape(key + ": " + message)).addConstraintViolation();
    }

    void onMap(String message) {
        any = true;
        context.buildConstraintViolationWithTemplate(escape(message)).addConstraintViolation();
    }

    boolean none() {
        return !any;
    }

    // A user's key goes into a message template: keep it from being read as an expression.
    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
    }
}
