package io.paddlejobs.security;

import java.util.List;
import java.util.Optional;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/**
 * Turns a request's optional {@code namespace} parameter into the namespace it may act in: the
 * caller's default when none is named (a 400 problem when it has none), and a 403 problem when the
 * caller may not use the one named.
 * That 403 does not depend on what the namespace holds, so another tenant's jobs are not revealed.
 */
@Component
public class NamespaceAccess {

    private final SecurityProperties.Mode mode;
    private final TenantAuthorizer authorizer;
    private final Tenant anonymous;

    NamespaceAccess(SecurityProperties security, TenantAuthorizer authorizer) {
        this.mode = security.mode();
        this.authorizer = authorizer;
        // Mode none: one tenant, everyone, with the service's default namespace and limits.
        this.anonymous = new Tenant("anonymous", List.of(security.defaultNamespace()), security.limits());
    }

    /** The namespace to act in; throws a 401 or 403 problem when the caller may not. */
    public String resolve(String requested, Action action) {
        Tenant tenant = tenant().orElseThrow(AccessRefusedException::unauthenticated);
        String namespace = requested != null ? requested
                : tenant.defaultNamespace().orElseThrow(() -> NamespaceRequiredException.of(tenant));
        if (!authorizer.mayUse(tenant, namespace, action)) {
            throw AccessRefusedException.namespace(tenant, namespace, action, authorizer.whereAllowed(tenant, action));
        }
        return namespace;
    }

    /** Like {@link #resolve}, but empty instead of an error: for pages, which show the error their script reads. */
    public Optional<String> resolveQuietly(String requested, Action action) {
        return tenant().flatMap(tenant -> Optional.ofNullable(requested).or(tenant::defaultNamespace)
                .filter(namespace -> authorizer.mayUse(tenant, namespace, action)));
    }

    /** The caller: authenticated, or in mode none everyone; empty when a token was needed and none sent. */
    public Optional<Tenant> tenant() {
        if (mode == SecurityProperties.Mode.NONE) {
            return Optional.of(anonymous);
        }
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication != null && authentication.getPrincipal() instanceof Tenant tenant
                ? Optional.of(tenant) : Optional.empty();
    }

    /** Who the caller is, for audit lines: never fails. */
    public String userName() {
        return tenant().map(Tenant::user).orElse("-");
    }

    /** The namespace a request means, for audit lines: never fails, even when the caller may not use it. */
    public String namespaceMeant(String requested) {
        return requested != null ? requested : tenant().flatMap(Tenant::defaultNamespace).orElse("-");
    }
}
