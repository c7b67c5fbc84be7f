package io.paddlejobs.api;

import io.paddlejobs.planning.BackendEnv;
import io.paddlejobs.planning.PaddleEnv;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * User environment variables: POSIX names, values of bounded size, and none of the names the
 * service injects (a user value there would miswire the job).
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = EnvVars.Validator.class)
@interface EnvVars {

    String message() default "invalid environment variables";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Checks names, and values where they are strings (a secret's variable holds a reference, checked on its own). */
    class Validator implements ConstraintValidator<EnvVars, Map<String, ?>> {
        private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
        private static final int MAX_VARIABLES = 100;
        private static final int MAX_VALUE_LENGTH = 4096;

        @Override
        public boolean isValid(Map<String, ?> env, ConstraintValidatorContext context) {
            if (env == null) {
                return true;
            }
            var report = new EntryViolations(context);
            if (env.size() > MAX_VARIABLES) {
                report.onMap("may hold at most " + MAX_VARIABLES + " variables");
            }
            env.forEach((name, value) -> {
                if (!NAME.matcher(name).matches()) {
                    report.onEntry(name, "name must match [A-Za-z_][A-Za-z0-9_]*");
                } else if (BackendEnv.isReserved(name)) {
                    report.onEntry(name, "is set by the backend in every replica (" + BackendEnv.why(name)
                            + ") and may not be overridden");
                } else if (PaddleEnv.isReserved(name)) {
                    report.onEntry(name, "is injected by paddle-jobs and may not be overridden"
                            + (name.startsWith(PaddleEnv.V2_PREFIX) ? " (Paddle v2 aborts on unknown PADDLE_INIT_ flags)" : ""));
                }
                if (value == null) {
                    report.onEntry(name, "value must be a string, not null");
                } else if (!(value instanceof String text)) {
                    return; // a reference, checked by its own constraints
                } else if (text.indexOf('\0') >= 0) {
                    report.onEntry(name, "value " + JobRequestBody.NO_NUL_MESSAGE);
                } else if (text.length() > MAX_VALUE_LENGTH) {
                    report.onEntry(name, "value may be at most " + MAX_VALUE_LENGTH + " characters");
                }
            });
            return report.none();
        }
    }
}
