package io.paddlejobs.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The backend and mode kubernetes's reviews reach the API server through the one connection record
 * ({@code paddlejobs.kubernetes.master-url}, {@code .connect-timeout}, {@code .request-timeout}):
 * what is bound, defaults included, is what the client is configured with.
 */
class ConnectionSettingsTest {

    @Test
    void theShippedConnectionFailsARequestWithinSecondsAndNeverRetriesIt() {
        KubernetesConnection shipped = Settings.defaults(KubernetesConnection.class);
        Config config = KubernetesClientFactory.config(shipped);

        assertThat(shipped.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.getRequestTimeout()).isEqualTo(3_000);
        assertThat(config.getConnectionTimeout()).isEqualTo(2_000);
        assertThat(config.getRequestRetryBackoffLimit()).isZero();
    }

    @Test
    void whatIsSetIsWhatTheClientUses() {
        KubernetesConnection set = Settings.of(KubernetesConnection.class, "master-url", "https://127.0.0.1:6443",
                "connect-timeout", "1s", "request-timeout", "9s");
        Config config = KubernetesClientFactory.config(set);

        assertThat(set).isEqualTo(new KubernetesConnection("https://127.0.0.1:6443", Duration.ofSeconds(1),
                Duration.ofSeconds(9)));
        assertThat(config.getMasterUrl()).startsWith("https://127.0.0.1:6443");
        assertThat(config.getConnectionTimeout()).isEqualTo(1_000);
        assertThat(config.getRequestTimeout()).isEqualTo(9_000);
    }
}
