package io.paddlejobs.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.local.LocalProperties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.util.unit.DataSize;

class QuantityDataSizeConverterTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(LocalProperties.class)
    @Import(QuantityDataSizeConverter.class)
    static class Settings {
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"512Gi, 549755813888", "512GB, 549755813888", "1.5Gi, 1610612736", "64MB, 67108864", "1024, 1024"})
    void localMemoryTakesTheRequestsUnitsAndSpringsAlike(String setting, long bytes) {
        new ApplicationContextRunner().withUserConfiguration(Settings.class)
                .withPropertyValues("paddlejobs.local.memory=" + setting)
                .run(context -> assertThat(context.getBean(LocalProperties.class).memory())
                        .isEqualTo(DataSize.ofBytes(bytes)));
    }
}
