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

/** A positive memory amount in Kubernetes quantity syntax ({@code 512Mi}, {@code 2Gi}, {@code 1G}). */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = MemoryQuantity.Validator.class)
@interface MemoryQuantity {

    String message() default "must be a memory quantity greater than 0, such as 512Mi, 2Gi or 1G";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<MemoryQuantity, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || (Memory.isValid(value) && Memory.parse(value).bytes() > 0);
        }
    }
}
