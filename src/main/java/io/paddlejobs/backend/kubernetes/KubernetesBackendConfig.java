package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.JobBackend;
import io.paddlejobs.config.PlanningProperties;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;

/**
 * The Kubernetes backend, chosen with {@code paddlejobs.backend=kubernetes}. Its health joins
 * the readiness group (see {@code kubernetes-backend.properties}): a replica whose informers
 * have not synced, or lost their watch, takes no traffic, but is not restarted for it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "paddlejobs.backend", havingValue = "kubernetes")
@PropertySource("classpath:io/paddlejobs/backend/kubernetes/kubernetes-backend.properties")
class KubernetesBackendConfig {

    /** How often every job is looked at again, changed or not: retries a failed pserver scale-down. */
    private static final Duration RESYNC = Duration.ofMinutes(5);

    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient(KubernetesProperties settings) {
        return KubernetesClients.create(settings);
    }

    @Bean(destroyMethod = "close")
    ClusterCache clusterCache(KubernetesClient client, KubernetesProperties settings) {
        return new ClusterCache(client, settings.namespaces(), RESYNC.toMillis());
    }

    @Bean(destroyMethod = "close")
    PserverReconciler pserverReconciler(ClusterCache cache, KubernetesClient client) {
        PserverReconciler reconciler = new PserverReconciler(cache, new Workloads(client));
        cache.addListener(reconciler);
        return reconciler;
    }

    @Bean
    JobBackend kubernetesJobBackend(KubernetesClient client, ClusterCache cache, KubernetesProperties settings,
                                    PlanningProperties planning, PserverReconciler reconciler) {
        var backend = new KubernetesJobBackend(settings, cache, new JobCreator(client, settings), new Workloads(client),
                new PlanRecovery(planning.toPolicy()), new LogStreams(client, settings.retryAfter()), Clock.systemUTC());
        // Listeners are in place: now the informers may start delivering.
        cache.start();
        return backend;
    }

    @Bean
    KubernetesHealthIndicator kubernetesHealthIndicator(ClusterCache cache) {
        return new KubernetesHealthIndicator(cache);
    }
}
