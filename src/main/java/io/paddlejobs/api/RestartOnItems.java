package io.paddlejobs.api;

import io.paddlejobs.planning.RestartOn;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/**
 * {@code restart_on}: one of the words {@link RestartOn#WORDS}, or a list of them and exit codes.
 * The field is untyped in Java because JSON gives it either shape.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = RestartOnItems.Validator.class)
@interface RestartOnItems {

    String message() default "must be any, infrastructure or stall, or a list of these words and exit codes"
            + " 1..255 (such as [\"infrastructure\", 1, 137])";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<RestartOnItems, Object> {

        /** Far more than there are words and exit codes; it keeps a huge list from being read item by item. */
        private static final int MAX_ITEMS = 300;

        @Override
        public boolean isValid(Object value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            if (value instanceof List<?> list && list.size() > MAX_ITEMS) {
                return false;
            }
            if (!(value instanceof String || value instanceof List<?>)) {
                return false;
            }
            try {
                RestartOn.parse(value);
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
    }
}
