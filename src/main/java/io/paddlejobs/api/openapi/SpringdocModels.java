package io.paddlejobs.api.openapi;

import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Role;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.List;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** How springdoc describes the planning types: as the service writes them (JacksonConfig), not as Java declares them. */
@Configuration(proxyBeanMethods = false)
class SpringdocModels {

    static {
        SpringDocUtils.getConfig().replaceWithClass(Memory.class, String.class).replaceWithClass(Cpu.class, String.class)
                // swagger-core reads @JsonValue from the enum itself, not from a mix-in
                .replaceWithSchema(Role.class, new StringSchema()._enum(List.of("pserver", "trainer")));
    }

    /**
     * springdoc describes models with swagger-core's own (Jackson 2) mapper; give it the same
     * snake_case names and role spelling that the service really writes.
     */
    @Bean
    ModelResolver snakeCaseModelResolver() {
        var mapper = io.swagger.v3.core.util.Json.mapper().copy();
        mapper.setPropertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE);
        mapper.addMixIn(Role.class, PlanningJsonModule.RoleWireName.class);
        return new ModelResolver(mapper);
    }
}
