package io.paddlejobs.api;

import io.paddlejobs.planning.Memory;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.regex.Pattern;

/**
 * A positive memory amount in Kubernetes quantity syntax ({@code 512Mi}, {@code 2Gi}, {@code 1G}),
 * at most 100Ti: more is no job's memory, and 100Ti times {@link JobRequestBody#MAX_COUNT}
 * replicas still fits the planner's arithmetic.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = MemoryQuantity.Validator.class)
@interface MemoryQuantity {

    String message() default "must be a memory quantity greater than 0 and at most 100Ti, such as 512Mi, 2Gi or 1G";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<MemoryQuantity, String> {
        /**
         * No memory fits in a long past 10^19 bytes, but computing 10^n for a huge exponent
         * ({@code 1e99999999}) keeps a CPU busy for minutes: refuse those before parsing.
         */
        private static final long MAX_BYTES = 100L << 40;
        private static final Pattern HUGE_EXPONENT = Pattern.compile(".*[eE]0*[1-9][0-9]{2,}\\s*");

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            // The contract's pattern has no white space; Memory.parse would strip it.
            if (HUGE_EXPONENT.matcher(value).matches() || !value.equals(value.strip())) {
                return false;
            }
            try {
                long bytes = Memory.parse(value).bytes();
                return bytes > 0 && bytes <= MAX_BYTES;
            } catch (IllegalArgumentException | ArithmeticException e) {
                return false;
            }
        }
    }
}
