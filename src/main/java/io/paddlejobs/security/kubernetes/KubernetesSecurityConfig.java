package io.paddlejobs.security.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.TenantAuthorizer;
import io.paddlejobs.security.TokenAuthenticator;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Mode {@code kubernetes} ({@code paddlejobs.security.mode=kubernetes}): the cluster authenticates
 * callers (TokenReview) and its RBAC on {@code batch/jobs} authorizes them (SubjectAccessReview).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "paddlejobs.security.mode", havingValue = "kubernetes")
class KubernetesSecurityConfig {

    /**
     * The Kubernetes backend's client when that backend is in use, else one of our own, configured
     * from {@code paddlejobs.kubernetes.*} the same way. Not a second KubernetesClient bean behind
     * {@code @ConditionalOnMissingBean}: in component-scanned configuration that condition depends
     * on which class is read first, and two client beans would break the backend's injection.
     */
    @Bean(destroyMethod = "close")
    ClusterReviews clusterReviews(ObjectProvider<KubernetesClient> backendClient, KubernetesProperties cluster) {
        KubernetesClient shared = backendClient.getIfAvailable();
        return shared != null ? new ClusterReviews(shared, false)
                : new ClusterReviews(client(cluster), true);
    }

    /**
     * Found the standard way (service account, else {@code KUBECONFIG} or {@code ~/.kube/config}),
     * with the backend's timeouts and no retries: a caller waits at most about one request timeout
     * for a review, then is denied. (The backend keeps its own builder to itself: nothing outside
     * it may reach into it.)
     */
    static KubernetesClient client(KubernetesProperties cluster) {
        ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null))
                .withConnectionTimeout(Math.toIntExact(cluster.connectTimeout().toMillis()))
                .withRequestTimeout(Math.toIntExact(cluster.requestTimeout().toMillis()))
                .withRequestRetryBackoffLimit(0);
        if (cluster.masterUrl() != null && !cluster.masterUrl().isBlank()) {
            config.withMasterUrl(cluster.masterUrl());
        }
        return new KubernetesClientBuilder().withConfig(config.build()).build();
    }

    @Bean
    TokenAuthenticator kubernetesTokens(ClusterReviews reviews, SecurityProperties security) {
        return new KubernetesTokenAuthenticator(reviews, security, Clock.systemUTC());
    }

    @Bean
    TenantAuthorizer kubernetesAuthorizer(ClusterReviews reviews, SecurityProperties security) {
        return new KubernetesAuthorizer(reviews, Clock.systemUTC(), security.kubernetes().cacheTtl());
    }
}
