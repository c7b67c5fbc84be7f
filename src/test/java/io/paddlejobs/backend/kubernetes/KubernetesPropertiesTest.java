package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class KubernetesPropertiesTest {

    @Test
    void theDefaultsTheTestsUseAreTheOnesAnOperatorWhoConfiguresNothingGets() {
        var bound = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("paddlejobs.kubernetes", KubernetesProperties.class);
        assertThat(bound).isEqualTo(KubernetesProperties.defaults());
    }

    @Test
    void aSharedMemorySizeThatIsNoQuantityStopsTheStartNamingTheProperty() {
        var binder = new Binder(new MapConfigurationPropertySource(Map.of("paddlejobs.kubernetes.shm-size", "lots")));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> binder.bindOrCreate("paddlejobs.kubernetes",
                KubernetesProperties.class)).hasStackTraceContaining("paddlejobs.kubernetes.shm-size: 'lots' is not a memory quantity");
    }
}
