package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Clock;
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

    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient(KubernetesConnection connection) {
        return KubernetesClientFactory.create(connection);
    }

    @Bean(destroyMethod = "close")
    KubernetesRuntime kubernetesRuntime(KubernetesClient client, KubernetesProperties settings, BackendProperties shared,
                                        JobPlanner planner, PackageFetchProperties fetch, CodePackages packages,
                                        RestartBackoff backoff) {
        return KubernetesRuntime.start(client, settings.withShared(shared), new ShippedCode.Source(fetch, packages), planner, backoff,
                Clock.systemUTC());
    }

    @Bean
    JobBackend kubernetesJobBackend(KubernetesRuntime runtime) {
        return runtime.jobs();
    }

    @Bean
    KubernetesHealthIndicator kubernetesHealthIndicator(KubernetesRuntime runtime) {
        return new KubernetesHealthIndicator(runtime.cache());
    }
}
