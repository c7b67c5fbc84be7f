package io.paddlejobs.security.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.security.ConditionalOnSecurityMode;
import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.TenantAuthorizer;
import io.paddlejobs.security.TokenAuthenticator;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Mode {@code kubernetes} ({@code paddlejobs.security.mode=kubernetes}): the cluster authenticates
 * callers (TokenReview) and its RBAC on {@code batch/jobs} authorizes them (SubjectAccessReview).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnSecurityMode(SecurityProperties.Mode.KUBERNETES)
class KubernetesSecurityConfig {

    /**
     * The Kubernetes backend's client when that backend is in use, else one of our own, made by
     * the same factory from the same {@code paddlejobs.kubernetes.*} connection settings (no
     * retries: a caller waits at most about one request timeout for a review, then is denied).
     * Not a second KubernetesClient bean behind {@code @ConditionalOnMissingBean}: in
     * component-scanned configuration that condition depends on which class is read first, and two
     * client beans would break the backend's injection.
     */
    @Bean(destroyMethod = "close")
    ClusterReviews clusterReviews(ObjectProvider<KubernetesClient> backendClient, KubernetesConnection connection) {
        KubernetesClient shared = backendClient.getIfAvailable();
        return shared != null ? new ClusterReviews(shared, false)
                : new ClusterReviews(KubernetesClientFactory.create(connection), true);
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
