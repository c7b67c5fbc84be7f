package io.paddlejobs.security;

import java.util.List;

/**
 * A caller, as the service knows them once authenticated.
 *
 * @param user       who it is, for audit lines and messages
 * @param namespaces the namespaces it may use, its default first; an authorizer that asks another
 *                   system (a Kubernetes SubjectAccessReview) may know only the default
 * @param limits     what it may submit
 */
public record Tenant(String user, List<String> namespaces, SecurityProperties.Limits limits) {

    public Tenant {
        if (namespaces.isEmpty()) {
            throw new IllegalArgumentException("a tenant needs at least one namespace");
        }
        namespaces = List.copyOf(namespaces);
    }

    /** Where its requests go when they name no namespace. */
    public String defaultNamespace() {
        return namespaces.get(0);
    }
}
