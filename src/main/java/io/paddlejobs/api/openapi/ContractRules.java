package io.paddlejobs.api.openapi;

import io.paddlejobs.api.JobRequestBody;
import io.paddlejobs.planning.DnsLabels;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The rules on parameters and fields as the service enforces them. Bean Validation's
 * {@code @Pattern} must match the whole value, a JSON Schema {@code pattern} only somewhere in it:
 * every pattern is anchored, so a value the contract admits is one the service accepts. A job's
 * {@code name} and a package's {@code id} in a path are given the form every name and id has (others
 * answer 404: nothing can have them). The list's 200 also says it streams with {@code watch=true}.
 * Runs last, after every other customizer has added its schemas.
 */
@Component
@Order(3)
class ContractRules implements OpenApiCustomizer {

    /** Path parameters whose values are always of one form. */
    private static final Map<String, Schema<?>> PATH_FORMS = Map.of(
            "name", new StringSchema().pattern(anchored(DnsLabels.JOB_NAME)).maxLength(JobRequestBody.MAX_NAME_LENGTH)
                    .description("The job's name"),
            "id", new StringSchema().pattern(anchored(JobRequestBody.PACKAGE_ID)).description("The package's id"));

    @Override
    public void customise(OpenAPI api) {
        api.getComponents().getSchemas().values().forEach(ContractRules::anchorPatterns);
        api.getPaths().values().forEach(item -> item.readOperations().forEach(operation -> {
            if (operation.getParameters() != null) {
                operation.getParameters().forEach(ContractRules::constrain);
            }
            if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null) {
                operation.getRequestBody().getContent().values().forEach(media -> anchorPatterns(media.getSchema()));
            }
        }));
        streamFromList(api.getPaths().get("/jobs").getGet());
        api.getComponents().addSchemas("JobSpec", spec(api.getComponents().getSchemas()));
        api.getComponents().getSchemas().get("JobPlan").getProperties()
                .put("spec", new Schema<>().$ref("#/components/schemas/JobSpec"));
        api.getComponents().addSchemas(ContractSchemas.RERUN_REQUEST, rerun(api.getComponents().getSchemas()));
    }

    /**
     * A run again's body: any of the request's fields, none required, each also {@code null} (which
     * takes the earlier job's value out).
     */
    // A 3.1 schema, so that its type list is written: a plain Schema's is not, and it came out as the
    // schema {@code true} (anything), which lint tools refuse as a property's alternative.
    private static final Schema<?> NULL_ONLY = new JsonSchema().types(Set.of("null"));

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Schema<?> rerun(Map<String, Schema> schemas) {
        Schema<?> rerun = copy(schemas.get("JobRequest"));
        rerun.setRequired(null);
        rerun.setAdditionalProperties(false); // a field JobRequest does not have is refused, as in a submit
        rerun.description("Request fields to change: any field of JobRequest; null takes the earlier job's value out");
        Map<String, Schema> properties = (Map<String, Schema>) rerun.getProperties();
        properties.replaceAll((name, property) -> {
            if (property.getEnum() != null) {
                // An enum stays typed as a string (generators need that); null is the other choice.
                return new Schema<>().description(property.getDescription())
                        .anyOf(List.of(property, NULL_ONLY));
            }
            if (property.getTypes() != null) {
                property.addType("null");
            }
            return property;
        });
        return rerun;
    }

    private static Schema<?> copy(Schema<?> schema) {
        try {
            var mapper = io.swagger.v3.core.util.Json31.mapper();
            return mapper.readValue(mapper.writeValueAsString(schema), Schema.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("The request schema cannot be copied", e);
        }
    }

    /**
     * A plan's spec: the request as the planner resolved it, written by the planning JSON module,
     * whose durations are ISO-8601 ({@code PT2H}), not the request's syntax ({@code 2h}).
     */
    @SuppressWarnings("unchecked")
    private static Schema<?> spec(Map<String, Schema> schemas) {
        Schema<?> spec = copy(schemas.get("JobRequest"));
        spec.description("The request as resolved: given fields as given, durations as ISO-8601");
        for (String duration : new String[] {"max_run_time", "stall_timeout", "debug_hold"}) {
            if (spec.getProperties().containsKey(duration)) {
                spec.getProperties().put(duration, new StringSchema().format("duration")
                        .description(((Schema<?>) spec.getProperties().get(duration)).getDescription()));
            }
        }
        return spec;
    }

    private static void constrain(Parameter parameter) {
        if ("path".equals(parameter.getIn()) && PATH_FORMS.containsKey(parameter.getName())) {
            Schema<?> form = PATH_FORMS.get(parameter.getName());
            parameter.schema(new StringSchema().pattern(form.getPattern()).maxLength(form.getMaxLength()))
                    .description(parameter.getDescription() == null ? form.getDescription() : parameter.getDescription());
        }
        anchorPatterns(parameter.getSchema());
    }

    private static void streamFromList(Operation list) {
        Content content = list.getResponses().get("200").getContent();
        // Before OpenAPI 3.2 an event stream's schema describes one event, as tools read it: the
        // event's fields (name, id, data), not the stream's text.
        Schema<?> event = new ObjectSchema()
                .description("With watch=true: one Server-Sent Event. job: data is this list's item; deleted: "
                        + "data is {\"name\", \"namespace\"}; end: data is timeout")
                .addProperty("event", new StringSchema()._enum(List.of("job", "deleted", "end")))
                .addProperty("id", new StringSchema().description("The job's name (job, deleted)"))
                .addProperty("data", new StringSchema())
                .required(List.of("event", "data"));
        content.addMediaType(org.springframework.http.MediaType.TEXT_EVENT_STREAM_VALUE, new MediaType().schema(event));
    }

    @SuppressWarnings("unchecked")
    private static void anchorPatterns(Schema<?> schema) {
        if (schema == null) {
            return;
        }
        if (schema.getPattern() != null) {
            schema.setPattern(anchored(schema.getPattern()));
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(property -> anchorPatterns((Schema<?>) property));
        }
        anchorPatterns(schema.getItems());
        if (schema.getAdditionalProperties() instanceof Schema<?> values) {
            anchorPatterns(values);
        }
    }

    static String anchored(String pattern) {
        return pattern.startsWith("^") && pattern.endsWith("$") ? pattern : "^(?:" + pattern + ")$";
    }
}
