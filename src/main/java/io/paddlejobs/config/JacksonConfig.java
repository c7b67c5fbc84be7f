package io.paddlejobs.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
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
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.ToStringSerializer;

/**
 * The planning types carry no JSON annotations (planning imports java.* only), so their wire
 * form is given here: quantities as Kubernetes writes them ({@code 250m}, {@code 1Gi}) and
 * roles in lower case, the same in responses, in stored job records and in the OpenAPI contract.
 */
@Configuration(proxyBeanMethods = false)
class JacksonConfig {

    static {
        SpringDocUtils.getConfig().replaceWithClass(Memory.class, String.class).replaceWithClass(Cpu.class, String.class)
                // swagger-core reads @JsonValue from the enum itself, not from a mix-in
                .replaceWithSchema(Role.class, new StringSchema()._enum(List.of("pserver", "trainer")));
    }

    @Bean
    JacksonModule planningTypes() {
        SimpleModule module = new SimpleModule("paddle-jobs-planning");
        module.addSerializer(Memory.class, ToStringSerializer.instance);
        module.addSerializer(Cpu.class, ToStringSerializer.instance);
        module.addDeserializer(Memory.class, new FromText<>(Memory.class) {
            @Override
            Memory parse(String text) {
                return Memory.parse(text);
            }
        });
        module.addDeserializer(Cpu.class, new FromText<>(Cpu.class) {
            @Override
            Cpu parse(String text) {
                return Cpu.parse(text);
            }
        });
        module.setMixInAnnotation(Role.class, RoleWireName.class);
        return module;
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
     * springdoc describes models with swagger-core's own (Jackson 2) mapper; give it the same
     * snake_case names and role spelling that the service really writes.
     */
    @Bean
    ModelResolver snakeCaseModelResolver() {
        var mapper = io.swagger.v3.core.util.Json.mapper().copy();
        mapper.setPropertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE);
        mapper.addMixIn(Role.class, RoleWireName.class);
        return new ModelResolver(mapper);
    }

    abstract static class RoleWireName {
        @JsonValue
        abstract String label();

        @JsonCreator
        static Role fromLabel(String label) {
            return Role.fromLabel(label);
        }
    }

    private abstract static class FromText<T> extends StdDeserializer<T> {
        FromText(Class<T> type) {
            super(type);
        }

        abstract T parse(String text);

        @Override
        public T deserialize(JsonParser p, DeserializationContext context) {
            return parse(p.getValueAsString());
        }
    }
}
