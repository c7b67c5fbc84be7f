package io.paddlejobs.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

/** A setting that was removed or folded into another, still set, stops the start naming what replaced it. */
class RetiredSettingsTest {

    @Test
    void aFoldedSettingStillSetStopsTheStartNamingItsReplacement() {
        StandardEnvironment environment = environmentWith(Map.of("paddlejobs.local.stop-grace-period", "2m"));

        assertThatThrownBy(() -> RetiredSettings.refuseAnySetIn(environment)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.local.stop-grace-period is no longer read")
                .hasMessageContaining("set paddlejobs.stop-grace-period");
    }

    @Test
    void aSettingThatIsNowAConstantIsNamedWithTheValueTheServiceUses() {
        StandardEnvironment environment = environmentWith(Map.of("paddlejobs.webhooks.keep-deliveries", "1000",
                "paddlejobs.history.retention.check-every", "1m"));

        assertThatThrownBy(() -> RetiredSettings.refuseAnySetIn(environment))
                .hasMessageContaining("paddlejobs.webhooks.keep-deliveries is no longer read: a job's last 100 deliveries")
                .hasMessageContaining("paddlejobs.history.retention.check-every is no longer read");
    }

    @Test
    void anEnvironmentVariableIsRecognisedInItsOwnSpelling() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("PADDLEJOBS_KUBERNETES_TERMINATIONGRACEPERIOD", "45s")));

        assertThatThrownBy(() -> RetiredSettings.refuseAnySetIn(environment))
                .hasMessageContaining("paddlejobs.kubernetes.termination-grace-period");
    }

    @Test
    void theSettingsThatReplacedThemStart() {
        StandardEnvironment environment = environmentWith(Map.of("paddlejobs.stop-grace-period", "2m",
                "paddlejobs.min-free-space", "1GB", "paddlejobs.local.max-running-jobs", "8"));

        assertThatCode(() -> RetiredSettings.refuseAnySetIn(environment)).doesNotThrowAnyException();
    }

    /** Registered as the service registers it: the context fails before it makes any bean. */
    @Test
    void anApplicationWithARetiredSettingDoesNotStart() {
        SpringApplicationBuilder application = new SpringApplicationBuilder(OnlyTheCheck.class)
                .web(WebApplicationType.NONE).properties("paddlejobs.slurm.allow-shared-files=true");

        assertThatThrownBy(application::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.slurm.allow-shared-files is no longer read")
                .hasMessageContaining("set paddlejobs.allow-shared-files");
    }

    /** What deploy/ ships and the service's own application.yaml start as they are. */
    @ParameterizedTest
    @ValueSource(strings = {"deploy/base/application.yaml", "deploy/cluster-wide/application.yaml",
            "src/main/resources/application.yaml"})
    void theShippedSettingsNameNoRetiredOne(String file) throws Exception {
        StandardEnvironment environment = new StandardEnvironment();
        new YamlPropertySourceLoader().load(file, new FileSystemResource(file))
                .forEach(environment.getPropertySources()::addFirst);

        assertThat(environment.getPropertySources().contains(file)).isTrue();
        assertThatCode(() -> RetiredSettings.refuseAnySetIn(environment)).doesNotThrowAnyException();
    }

    @Test
    void everyRetiredSettingNamesWhatToDoInstead() {
        assertThat(RetiredSettings.REPLACEMENTS).hasSizeGreaterThanOrEqualTo(18)
                .allSatisfy((key, instead) -> assertThat(instead).containsAnyOf("set paddlejobs.", "remove it"));
    }

    private static StandardEnvironment environmentWith(Map<String, Object> settings) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", settings));
        return environment;
    }

    @Configuration(proxyBeanMethods = false)
    @Import(RetiredSettings.class)
    static class OnlyTheCheck {
    }
}
