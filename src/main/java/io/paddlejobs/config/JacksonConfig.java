package io.paddlejobs.config;

import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Role;
import io.swagger.v3.core.jackson.ModelResolver;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JacksonModule;

/** JSON as the API writes it: snake_case (application.yaml) and the planning types' own form. */
@Configuration(proxyBeanMethods = false)
class JacksonConfig {

    static {
        SpringDocUtils.getConfig().replaceWithClass(Memory.class, String.class).replaceWithClass(Cpu.class, String.class);
    }

    @Bean
    JacksonModule planningTypes() {
        return new PlanningJsonModule();
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
