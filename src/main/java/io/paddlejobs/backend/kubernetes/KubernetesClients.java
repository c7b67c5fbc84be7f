package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The client, configured the standard way (in-cluster service account, else {@code KUBECONFIG}
 * or {@code ~/.kube/config}), with timeouts that let a request fail fast. fabric8 by default
 * retries a failed request with backoff for about 19 s; a user waiting on a submit is better
 * served by a prompt 503 and a {@code Retry-After}, and informers retry on their own.
 */
final class KubernetesClients {

    private KubernetesClients() {
    }

    static Config config(KubernetesProperties settings) {
        ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null))
                .withConnectionTimeout(millis(settings.connectTimeout()))
                .withRequestTimeout(millis(settings.requestTimeout()))
                .withRequestRetryBackoffLimit(0);
        if (settings.masterUrl() != null && !settings.masterUrl().isBlank()) {
            config.withMasterUrl(settings.masterUrl());
        }
        return config.build();
    }

    static KubernetesClient create(KubernetesProperties settings) {
        return new KubernetesClientBuilder().withConfig(config(settings)).build();
    }

    private static int millis(java.time.Duration duration) {
        return Math.toIntExact(duration.toMillis());
    }
}
