package io.paddlejobs.security;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Defines a bean or configuration only in this security mode. The mode is read as
 * {@link SecurityProperties} binds it (its default included), so that every part of the service
 * agrees on which mode it is in.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(OnSecurityModeCondition.class)
public @interface ConditionalOnSecurityMode {

    SecurityProperties.Mode value();
}
