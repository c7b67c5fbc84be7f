package io.paddlejobs.config;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/** JSON as the API writes it: snake_case (application.yaml) and the planning types' own form (springdoc: api/openapi). */
@Configuration(proxyBeanMethods = false)
class JacksonConfig {

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
     * Text where the contract has a number or a boolean is refused too ({@code "num_cpus": "2"}), as
     * is a number where it has a boolean: every field's type is the contract's, none is guessed.
     */
    @Bean
    JsonMapperBuilderCustomizer noTextAsNumbersOrBooleans() {
        return builder -> builder
                .withCoercionConfig(LogicalType.Integer, number -> number
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, flag -> flag
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail));
    }
}
