package io.paddlejobs.security.kubernetes;

import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.Tenant;
import io.paddlejobs.security.TokenHash;
import io.paddlejobs.security.TokenAuthenticator;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mode {@code kubernetes}: a bearer token is whoever the cluster's TokenReview says it is. The
 * answer is kept for the cache TTL under the token's SHA-256, so no token is held in memory. A
 * review that fails lets nobody in (401): the service cannot tell a good token from a bad one then.
 */
final class KubernetesTokenAuthenticator implements TokenAuthenticator {

    private static final Logger log = LoggerFactory.getLogger(KubernetesTokenAuthenticator.class);

    private final ClusterReviews reviews;
    private final ReviewCache<String, Optional<ClusterReviews.Identity>> answers;
    private final Map<String, String> defaultNamespaces;
    private final SecurityProperties.Limits limits;

    KubernetesTokenAuthenticator(ClusterReviews reviews, SecurityProperties security, Clock clock) {
        this.reviews = reviews;
        this.answers = new ReviewCache<>(clock, security.kubernetes().cacheTtl());
        this.defaultNamespaces = security.kubernetes().defaultNamespaces();
        this.limits = security.limits();
    }

    @Override
    public Optional<Tenant> authenticate(String token) {
        if (token.isBlank()) {
            return Optional.empty();
        }
        try {
            return answers.get(TokenHash.hex(token), () -> reviews.authenticate(token)).map(this::tenant);
        } catch (RuntimeException e) {
            log.warn("TokenReview failed, so the caller is not let in: {}", e.toString());
            return Optional.empty();
        }
    }

    private Tenant tenant(ClusterReviews.Identity identity) {
        String namespace = defaultNamespaces.get(identity.user());
        return new Tenant(identity.user(), identity.groups(), namespace == null ? List.of() : List.of(namespace),
                limits);
    }
}
