package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.kubernetes.KubernetesConnection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The backend and mode kubernetes's reviews read the connection from the same keys: bound from the
 * same environment they reach the same API server with the same timeouts, defaults included.
 */
class ConnectionSettingsTest {

    @Test
    void theBackendsSettingsAndTheReviewsConnectionAgreeOnDefaults() {
        Binder empty = new Binder(new MapConfigurationPropertySource());

        assertThat(bind(empty).connection()).isEqualTo(empty.bindOrCreate("paddlejobs.kubernetes",
                KubernetesConnection.class));
        assertThat(bind(empty).connection().requestTimeout()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void theBackendsSettingsAndTheReviewsConnectionAgreeOnWhatIsSet() {
        Binder set = new Binder(new MapConfigurationPropertySource(Map.of(
                "paddlejobs.kubernetes.master-url", "https://127.0.0.1:6443",
                "paddlejobs.kubernetes.connect-timeout", "1s",
                "paddlejobs.kubernetes.request-timeout", "9s")));

        assertThat(bind(set).connection())
                .isEqualTo(set.bindOrCreate("paddlejobs.kubernetes", KubernetesConnection.class))
                .isEqualTo(new KubernetesConnection("https://127.0.0.1:6443", Duration.ofSeconds(1), Duration.ofSeconds(9)));
    }

    private static KubernetesProperties bind(Binder binder) {
        return binder.bindOrCreate("paddlejobs.kubernetes", KubernetesProperties.class);
    }
}
