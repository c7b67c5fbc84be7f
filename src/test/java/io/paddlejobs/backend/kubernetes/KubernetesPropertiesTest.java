package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.ClassPathResource;

class KubernetesPropertiesTest {

    @Test
    void theDefaultsTheTestsUseAreWhatTheShippedApplicationYamlBinds() throws Exception {
        var shipped = new YamlPropertySourceLoader().load("application.yaml", new ClassPathResource("application.yaml"));

        var bound = new Binder(ConfigurationPropertySources.from(shipped))
                .bindOrCreate("paddlejobs.kubernetes", KubernetesProperties.class);

        assertThat(shipped).isNotEmpty();
        assertThat(bound).isEqualTo(Settings.defaults(KubernetesProperties.class));
    }

    @Test
    void aSharedMemorySizeThatIsNoQuantityStopsTheStartNamingTheProperty() {
        var binder = new Binder(new MapConfigurationPropertySource(Map.of("paddlejobs.kubernetes.shm-size", "lots")));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> binder.bindOrCreate("paddlejobs.kubernetes",
                KubernetesProperties.class)).hasStackTraceContaining("paddlejobs.kubernetes.shm-size: 'lots' is not a memory quantity");
    }
}
