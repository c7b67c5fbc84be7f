package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Up when every informer has filled its cache and is watching: only then are statuses current.
 * Answered from the informers' own state, so a probe costs the API server nothing.
 */
final class KubernetesHealthIndicator implements HealthIndicator {

    private final ClusterCache cache;

    KubernetesHealthIndicator(ClusterCache cache) {
        this.cache = cache;
    }

    @Override
    public Health health() {
        boolean synced = cache.synced();
        boolean watching = cache.watching();
        Health.Builder health = synced && watching ? Health.up() : Health.down();
        return health.withDetail("informersSynced", synced).withDetail("watching", watching).build();
    }
}
