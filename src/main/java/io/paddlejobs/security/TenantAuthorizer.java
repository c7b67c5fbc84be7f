package io.paddlejobs.security;

/**
 * Decides whether a tenant may act in a namespace. One implementation per
 * {@code paddlejobs.security.mode}: in {@code none} everything is allowed, in {@code token} the
 * namespaces listed with the token; in {@code kubernetes} the cluster's RBAC, through a SubjectAccessReview.
 */
@FunctionalInterface
public interface TenantAuthorizer {

    boolean mayUse(Tenant tenant, String namespace, Action action);

    /** Ends the message of a 403: where the tenant could act instead, as far as this authorizer can say. */
    default String whereAllowed(Tenant tenant, Action action) {
        return "namespaces you may use: " + String.join(", ", tenant.namespaces());
    }

    /** Mode {@code none}: the service trusts whoever reaches it. */
    TenantAuthorizer ANYONE = (tenant, namespace, action) -> true;

    /** Mode {@code token}: the namespaces listed with the caller's token, for every action. */
    TenantAuthorizer LISTED_NAMESPACES = (tenant, namespace, action) -> tenant.namespaces().contains(namespace);
}
