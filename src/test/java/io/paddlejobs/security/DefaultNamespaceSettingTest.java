package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

/** Where mode none's requests go when they name no namespace, under the setting's new name and its earlier one. */
class DefaultNamespaceSettingTest {

    @Test
    void withNothingSetItIsDefault() throws IOException {
        assertThat(bound(Map.of()).defaultNamespace()).isEqualTo("default");
    }

    @Test
    void theEarlierNameStillSetsIt() throws IOException {
        assertThat(bound(Map.of("paddlejobs.defaults.namespace", "team-old")).defaultNamespace()).isEqualTo("team-old");
    }

    @Test
    void theNewNameSetsItAndWinsOverTheEarlierOne() throws IOException {
        assertThat(bound(Map.of("paddlejobs.security.default-namespace", "team-new",
                "paddlejobs.defaults.namespace", "team-old")).defaultNamespace()).isEqualTo("team-new");
    }

    /** The operator's settings over the shipped application.yaml, as Spring Boot orders them. */
    private static SecurityProperties bound(Map<String, Object> operator) throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("operator", operator));
        new YamlPropertySourceLoader().load("shipped", new ClassPathResource("application.yaml"))
                .forEach(environment.getPropertySources()::addLast);
        return Binder.get(environment).bindOrCreate("paddlejobs.security", SecurityProperties.class);
    }
}
