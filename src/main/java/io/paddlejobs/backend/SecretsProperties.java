package io.paddlejobs.backend;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the local and Slurm backends find the secrets a request's {@code env_from_secrets} names
 * ({@code paddlejobs.secrets.*}); the Kubernetes backend refers to the namespace's Secrets instead.
 *
 * @param store the operator's secret store: {@code <store>/<namespace>/<secret>/<key>}, each file one value
 *              (a final newline is not part of it), owned by the service's user and readable by it alone
 *              (mode 0600 or 0400); unset: jobs on these backends can name no secrets
 */
@ConfigurationProperties("paddlejobs.secrets")
public record SecretsProperties(Path store) {

    /** The store these settings name (none when unset). */
    public SecretStore toStore() {
        return store == null ? SecretStore.NONE : SecretStore.at(store);
    }
}
