package io.paddlejobs.api.openapi;

import io.paddlejobs.api.DryRunView;
import io.paddlejobs.api.FieldError;
import io.paddlejobs.api.JobListView;
import io.paddlejobs.api.JobSummary;
import io.paddlejobs.api.JobView;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Makes the schemas say exactly what the service sends, so that generated clients compile and
 * read every answer: enums typed as strings, quantities and URLs with their formats, values of
 * any type left untyped, the fields that are always present marked required (nothing is ever
 * sent as {@code null}: absent means not set), and a submit's answers told apart by {@code kind}.
 * Runs after {@link ProblemResponses}, which adds the problem schemas.
 */
@Component
@Order(2)
public class ContractSchemas implements OpenApiCustomizer {

    /** Fields present in every instance the service writes (null fields are left out, never written as null). */
    private static final Map<String, List<String>> REQUIRED = Map.ofEntries(
            Map.entry("JobView", List.of("kind", "name", "namespace", "status_url", "warnings", "plan", "status")),
            Map.entry("DryRunView", List.of("kind", "dry_run", "name", "namespace", "warnings", "plan", "manifests")),
            Map.entry("JobListView", List.of("items")),
            Map.entry("JobSummary", List.of("name", "namespace", "phase", "created_at", "pservers", "trainers", "status_url")),
            Map.entry("JobPlan", List.of("name", "namespace", "spec", "trainers", "use_gpu", "totals", "replicas",
                    "derivations", "warnings")),
            Map.entry("JobStatus", List.of("phase", "created_at", "replicas", "restarts", "attempts")),
            Map.entry("Attempt", List.of("number", "started_at")),
            Map.entry("Progress", List.of("step", "trainer")),
            Map.entry("RoleCounts", List.of("desired", "pending", "running", "succeeded", "failed", "stopped")),
            Map.entry("ReplicaStatus", List.of("id", "role", "index", "state", "restarts")),
            Map.entry("Replica", List.of("role", "index", "host", "env")),
            Map.entry("RolePlan", List.of("role", "count", "entry_point", "per_replica")),
            Map.entry("Resources", List.of("cpu", "gpu", "memory")),
            Map.entry("Ports", List.of("first", "num", "num_for_sparse")),
            Map.entry("Derivation", List.of("field", "rule", "value")),
            Map.entry("FieldError", List.of("field", "message")),
            Map.entry("StacksView", List.of("dumps")),
            Map.entry("StackDump", List.of("attempt", "taken_at", "trigger", "replicas")),
            Map.entry("ReplicaStacks", List.of("replica", "role", "index", "processes")),
            Map.entry("ProcessStacks", List.of("pid", "command", "threads")),
            Map.entry("ThreadStack", List.of("name", "active", "owns_gil", "frames")),
            Map.entry("Frame", List.of("function", "file")),
            Map.entry("Problem", List.of("title", "status")));

    /** Kubernetes quantities: CPUs ({@code 2}, {@code 250m}) and memory ({@code 1Gi}, {@code 1G}). */
    private static final Set<String> QUANTITIES = Set.of("JobRequest.memory", "JobRequest.trainer_mem",
            "JobRequest.pserver_mem", "JobRequest.shm_size", "Resources.cpu", "Resources.memory");

    public static final String SUBMIT_RESULT = "SubmitResult";
    /** A run again's body (ContractRules): the request's fields, none required. */
    public static final String RERUN_REQUEST = "RerunRequest";

    @Override
    public void customise(OpenAPI api) {
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        // Only SubmitResult names the dry run's schema, and springdoc does not follow a hand-written reference.
        ModelConverters.getInstance(api.getSpecVersion() == SpecVersion.V31)
                .readAll(new AnnotatedType(DryRunView.class)).forEach(schemas::putIfAbsent);
        schemas.values().forEach(ContractSchemas::typeEnumsAsStrings);
        REQUIRED.forEach((name, fields) -> {
            Schema<?> schema = schemas.get(name);
            if (schema != null) {
                schema.setRequired(new ArrayList<>(new TreeSet<>(fields)));
            }
        });
        QUANTITIES.forEach(field -> quantity(property(schemas, field)));
        // What a request may give is more than 0; what an answer shows may be 0 (a collective job's pservers).
        QUANTITIES.stream().filter(field -> field.startsWith("JobRequest."))
                .forEach(field -> property(schemas, field).pattern(POSITIVE_QUANTITY));
        // An unknown field is a 400 (num_gpu is a typo, not ignored): the contract says so too.
        schemas.get("JobRequest").setAdditionalProperties(false);
        property(schemas, "FieldError.rejected").types(null).type(null)
                .description("The rejected value as given (string, number or boolean), when it is short");
        // A word or a list of words and exit codes: a oneOf of both shapes breaks the generated Java client.
        property(schemas, "JobRequest.restart_on").types(null).type(null);
        property(schemas, "JobView.status_url").format("uri");
        property(schemas, "JobSummary.status_url").format("uri");
        property(schemas, "Problem.type").format("uri-reference");
        property(schemas, "Problem.instance").format("uri-reference");
        Schema<?> anyObject = new Schema<>().types(Set.of("object")).type("object");
        anyObject.setAdditionalProperties(true);
        property(schemas, "DryRunView.manifests").items(anyObject)
                .description("The objects the backend would create, as the cluster would get them (none locally)");
        kind(schemas, "JobView", "Job");
        kind(schemas, "DryRunView", "DryRun");
        schemas.put(SUBMIT_RESULT, submitResult());
    }

    /** A 200 from a submit is either a dry run or the job already there: {@code kind} says which. */
    private static Schema<?> submitResult() {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("DryRun", "#/components/schemas/DryRunView");
        mapping.put("Job", "#/components/schemas/JobView");
        return new Schema<>()
                .description("With dry_run=true, a DryRunView (kind DryRun); else the existing job (kind Job)")
                .oneOf(List.of(new Schema<>().$ref("#/components/schemas/DryRunView"),
                        new Schema<>().$ref("#/components/schemas/JobView")))
                .discriminator(new Discriminator().propertyName("kind").mapping(mapping));
    }

    private static void kind(Map<String, Schema> schemas, String schema, String value) {
        schemas.get(schema).getProperties().put("kind", new StringSchema()._enum(List.of(value))
                .description("What this document is: " + value));
    }

    private static Schema<?> property(Map<String, Schema> schemas, String qualified) {
        String[] parts = qualified.split("\\.");
        Schema<?> property = (Schema<?>) schemas.get(parts[0]).getProperties().get(parts[1]);
        if (property == null) {
            throw new IllegalStateException("The contract has no " + qualified);
        }
        return property;
    }

    /** swagger-core types an enum by its Java class; on the wire every enum here is a string. */
    @SuppressWarnings("unchecked")
    private static void typeEnumsAsStrings(Schema<?> schema) {
        if (schema == null) {
            return;
        }
        if (schema.getEnum() != null && !schema.getEnum().isEmpty()) {
            schema.types(Set.of("string")).type("string");
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(p -> typeEnumsAsStrings((Schema<?>) p));
        }
        typeEnumsAsStrings(schema.getItems());
        if (schema.getAdditionalProperties() instanceof Schema<?> values) {
            typeEnumsAsStrings(values);
        }
    }

    /**
     * Memory.parse's syntax with a digit other than 0 somewhere in the number: "0" (or "0.0Gi") is no
     * memory, refused by the service, so not schema-valid either. Without a lookahead, which not every
     * generator of examples takes: a non-zero digit before the point, or after it.
     */
    static final String POSITIVE_QUANTITY = "^(?:[0-9]*[1-9][0-9]*(?:\\.[0-9]+)?|[0-9]+\\.[0-9]*[1-9][0-9]*)"
            + "(?:Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P|[eE][0-9]+)?$";

    private static void quantity(Schema<?> property) {
        String description = property.getDescription() == null ? "" : property.getDescription();
        property.format("quantity").minLength(1).description(description.contains("quantity") ? description
                : (description + ", Kubernetes quantity").replaceFirst("^, ", ""));
    }
}
