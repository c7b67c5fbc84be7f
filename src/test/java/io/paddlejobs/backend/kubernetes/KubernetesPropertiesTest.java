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
}
