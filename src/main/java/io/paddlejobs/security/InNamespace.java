package io.paddlejobs.security;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A handler's {@code namespace}: the query parameter, checked to be a DNS label, the caller's
 * default when none is named, and authorized for {@link #value} ({@link NamespaceAccess#resolve})
 * before the handler runs. A handler cannot forget the check: ArchitectureTest wants every handler
 * to take one, but the few named there that serve anyone.
 */
@Documented
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface InNamespace {

    /** What the caller is about to do in it. */
    Action value();

    /**
     * For pages, which are served to anyone and whose script shows the error the JSON gives: the
     * argument is {@code null} instead of a 401, 400 or 403 problem when the caller may not act
     * ({@link NamespaceAccess#resolveQuietly}). The name is still checked.
     */
    boolean quietly() default false;
}
