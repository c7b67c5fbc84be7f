package io.paddlejobs.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The one way the service builds a Kubernetes client: configured the standard way (in-cluster
 * service account, else {@code KUBECONFIG} or {@code ~/.kube/config}), with timeouts that let a
 * request fail fast. fabric8 by default retries a failed request with backoff for about 19 s; a
 * user waiting on a submit or a review is better served by a prompt answer (a 503 with
 * {@code Retry-After}, a 401), and informers retry on their own.
 */
public final class KubernetesClientFactory {

    private KubernetesClientFactory() {
    }

    public static Config config(KubernetesConnection connection) {
        ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null))
                .withConnectionTimeout(Math.toIntExact(connection.connectTimeout().toMillis()))
                .withRequestTimeout(Math.toIntExact(connection.requestTimeout().toMillis()))
                .withRequestRetryBackoffLimit(0);
        if (connection.masterUrl() != null && !connection.masterUrl().isBlank()) {
            config.withMasterUrl(connection.masterUrl());
        }
        return config.build();
    }

    public static KubernetesClient create(KubernetesConnection connection) {
        return new KubernetesClientBuilder().withConfig(config(connection)).build();
    }
}
