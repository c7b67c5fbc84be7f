package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.kubernetes.KubernetesClientFactory;

/** The backend's client, made by the service's one {@link KubernetesClientFactory} from its settings. */
final class KubernetesClients {

    private KubernetesClients() {
    }

    static Config config(KubernetesProperties settings) {
        return KubernetesClientFactory.config(settings.connection());
    }

    static KubernetesClient create(KubernetesProperties settings) {
        return KubernetesClientFactory.create(settings.connection());
    }
}
