package io.paddlejobs.security;

import io.paddlejobs.job.Quota;
import java.util.List;
import java.util.Optional;

/**
 * A caller, as the service knows them once authenticated.
 *
 * @param user       who it is, for audit lines and messages
 * @param groups     the groups the authenticating system put it in (mode {@code kubernetes}); else empty
 * @param namespaces the namespaces it may use, its default first; an authorizer that asks another
 *                   system (a Kubernetes SubjectAccessReview) may know only the default, or none
 * @param limits     what it may submit
 */
public record Tenant(String user, List<String> groups, List<String> namespaces, SecurityProperties.Limits limits) {

    public Tenant {
        groups = List.copyOf(groups);
        namespaces = List.copyOf(namespaces);
    }

    public Tenant(String user, List<String> namespaces, SecurityProperties.Limits limits) {
        this(user, List.of(), namespaces, limits);
    }

    /** What the jobs of a namespace may hold when it submits into it. */
    public Quota quota() {
        return limits.quota();
    }

    /** Where its requests go when they name no namespace; empty when they must name one. */
    public Optional<String> defaultNamespace() {
        return namespaces.stream().findFirst();
    }
}
