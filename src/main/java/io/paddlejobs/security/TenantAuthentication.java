package io.paddlejobs.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/** A caller whose bearer token matched: the principal is its {@link Tenant}; the token itself is not kept. */
final class TenantAuthentication extends AbstractAuthenticationToken {

    private final Tenant tenant;

    TenantAuthentication(Tenant tenant) {
        super(List.of());
        this.tenant = tenant;
        setAuthenticated(true);
    }

    @Override
    public Tenant getPrincipal() {
        return tenant;
    }

    @Override
    public Object getCredentials() {
        return null;
    }

    @Override
    public String getName() {
        return tenant.user();
    }
}
