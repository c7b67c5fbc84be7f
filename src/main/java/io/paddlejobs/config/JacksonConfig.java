package io.paddlejobs.config;

import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Role;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.List;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/** JSON as the API writes it: snake_case (application.yaml) and the planning types' own form. */
@Configuration(proxyBeanMethods = false)
class JacksonConfig {

    static {
        SpringDocUtils.getConfig().replaceWithClass(Memory.class, String.class).replaceWithClass(Cpu.class, String.class)
                // swagger-core reads @JsonValue from the enum itself, not from a mix-in
                .replaceWithSchema(Role.class, new StringSchema()._enum(List.of("pserver", "trainer")));
    }

    @Bean
    JacksonModule planningTypes() {
        return new PlanningJsonModule();
    }

    /**
     * A key given twice is refused, not read as its last value: like an unknown field, a
     * repeated {@code num_gpus} is a mistake the user should hear about.
     */
    @Bean
    JsonMapperBuilderCustomizer strictDuplicateDetection() {
        return builder -> builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * A number or boolean where the contract has a string is refused, not read as its text: the contract
     * says {@code "entry_point": "string"}, and {@code -1.9} accepted would make it false.
     */
    @Bean
    JsonMapperBuilderCustomizer noScalarsAsText() {
        return builder -> builder.withCoercionConfig(LogicalType.Textual, text -> text
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
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
