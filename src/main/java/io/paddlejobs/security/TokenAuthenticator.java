package io.paddlejobs.security;

import java.util.Optional;

/**
 * Who a bearer token belongs to: the token file in mode {@code token}, the cluster's TokenReview in
 * mode {@code kubernetes}. Empty for a token nobody knows, and for one that could not be checked:
 * a caller is never let in on a guess.
 */
@FunctionalInterface
public interface TokenAuthenticator {

    Optional<Tenant> authenticate(String token);
}
