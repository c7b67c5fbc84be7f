package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import io.paddlejobs.api.openapi.ContractSchemas;
import io.paddlejobs.api.openapi.RequestExamples;
import io.paddlejobs.testing.CommittedFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * docs/api.md: the committed contract {@code openapi/openapi.yaml} is what the service serves, and
 * what it serves is what the service really sends (snake_case names, quantities as strings).
 */
class OpenApiContractTest extends ApiTest {

    static final Path CONTRACT = Path.of("openapi", "openapi.yaml");
    static final String UPDATE_PROPERTY = "openapi.update";

    @Test
    void servedContractMatchesTheCommittedOne() throws Exception {
        String served = mvc.perform(get("/v3/api-docs.yaml")).andReturn().getResponse()
                .getContentAsString(StandardCharsets.UTF_8);
        // The Python client's module is generated from the same contract: regenerate and commit both.
        CommittedFiles.assertCurrent(CONTRACT, served, "the served /v3/api-docs.yaml", OpenApiContractTest.class,
                UPDATE_PROPERTY);
    }

    @Test
    void pythonClientsModuleIsGeneratedFromTheServedContract() throws Exception {
        String generated = PythonClientModule.render(schemas());
        CommittedFiles.assertCurrent(PythonClientModule.FILE, generated, "the served contract",
                OpenApiContractTest.class, UPDATE_PROPERTY);
    }

    @Test
    void servedContractIsTheSameOnEveryRequest() throws Exception {
        String first = mvc.perform(get("/v3/api-docs.yaml")).andReturn().getResponse().getContentAsString();
        String second = mvc.perform(get("/v3/api-docs.yaml")).andReturn().getResponse().getContentAsString();

        assertThat(second).isEqualTo(first);
        assertThat(first).doesNotContain("localhost").doesNotContain("127.0.0.1");
    }

    @Test
    void requestSchemaUsesTheWireNamesAndTypes() throws Exception {
        JsonNode request = schemas().path("JobRequest");

        assertThat(request.path("properties").propertyNames()).contains("entry_point", "num_gpus", "trainer_gpu",
                "ports_num_for_sparse", "use_gpu", "env", "labels").noneMatch(name -> name.matches(".*[A-Z].*"));
        assertThat(request.path("required").toString()).isEqualTo("[\"entry_point\"]");
        assertThat(request.at("/properties/memory/type").asString()).isEqualTo("string");
    }

    @Test
    void planSchemasDescribeQuantitiesAsStringsAndRolesInLowerCase() throws Exception {
        JsonNode schemas = schemas();

        assertThat(schemas.at("/Resources/properties/cpu/type").asString()).isEqualTo("string");
        assertThat(schemas.at("/Resources/properties/memory/type").asString()).isEqualTo("string");
        assertThat(schemas.at("/RolePlan/properties/role/enum").toString()).isEqualTo("[\"pserver\",\"trainer\"]");
        assertThat(schemas.at("/JobPlan/properties/spec/$ref").asString()).isEqualTo("#/components/schemas/JobSpec");
        assertThat(schemas.at("/JobSpec/properties/max_run_time/format").asString()).isEqualTo("duration");
        assertThat(schemas.at("/JobSpec/properties/entry_point").isObject()).isTrue();
    }

    @Test
    void submitOffersABeginnerAnAdvancedAndACollectiveExample() throws Exception {
        JsonNode examples = apiDocs().at("/paths/~1jobs/post/requestBody/content/application~1json/examples");

        assertThat(examples.propertyNames()).containsExactlyInAnyOrder("beginner", "advanced", "collective");
        assertThat(examples.at("/collective/value/mode").asString()).isEqualTo("collective");
        assertThat(examples.at("/beginner/value/entry_point").asString()).isEqualTo("python train.py");
        assertThat(examples.at("/advanced/value/trainer_gpu").asInt()).isEqualTo(1);
    }

    @Test
    void submitDocumentsItsErrorsAsProblemDocuments() throws Exception {
        JsonNode responses = apiDocs().at("/paths/~1jobs/post/responses");

        assertThat(responses.propertyNames()).contains("200", "201", "400", "403", "406", "408", "409", "413", "415",
                "429", "500", "503");
        assertThat(responses.at("/400/$ref").asString()).isEqualTo("#/components/responses/BadRequest");
        assertThat(apiDocs().at("/components/responses/BadRequest/content/application~1problem+json/schema/$ref")
                .asString()).isEqualTo("#/components/schemas/Problem");
    }

    @Test
    void everyOperationDocumentsItsErrorsAndJobOperationsTheirNotFound() throws Exception {
        JsonNode paths = apiDocs().path("paths");

        paths.propertyNames().forEach(path -> paths.path(path).propertyNames().forEach(method -> {
            JsonNode responses = paths.path(path).path(method).path("responses");
            assertThat(responses.propertyNames()).as("%s %s", method, path).contains("400", "403", "406", "500", "503");
            if (path.contains("{name}")) {
                assertThat(responses.propertyNames()).as("%s %s", method, path).contains("404");
            }
        }));
    }

    @Test
    void inModeNoneNoOperationAsksForATokenNorAnswers401() throws Exception {
        JsonNode docs = apiDocs();

        assertThat(docs.path("security").isMissingNode()).isTrue();
        docs.path("paths").properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            assertThat(operation.getValue().path("security").toString()).as("%s %s", operation.getKey(), path.getKey())
                    .isEqualTo("[]");
            assertThat(operation.getValue().path("responses").propertyNames()).doesNotContain("401");
        }));
    }

    @Test
    void everyPatternIsAnchoredAsBeanValidationMatchesTheWholeValue() throws Exception {
        List<String> patterns = apiDocs().findValuesAsString("pattern");

        assertThat(patterns).isNotEmpty().allMatch(pattern -> pattern.startsWith("^") && pattern.endsWith("$"));
        assertThat(apiDocs().at("/paths/~1jobs/get/parameters/0/schema/pattern").asString())
                .isEqualTo("^(?:[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)$");
    }

    @Test
    void aSubmitsTwoKindsOfOkAreToldApartByKind() throws Exception {
        JsonNode result = schemas().path(ContractSchemas.SUBMIT_RESULT);
        JsonNode sent = bodyOf(dryRun(RequestExamples.BEGINNER));

        assertThat(apiDocs().at("/paths/~1jobs/post/responses/200/content/application~1json/schema/$ref").asString())
                .isEqualTo("#/components/schemas/SubmitResult");
        assertThat(result.at("/discriminator/propertyName").asString()).isEqualTo("kind");
        assertThat(result.at("/discriminator/mapping/DryRun").asString()).isEqualTo("#/components/schemas/DryRunView");
        assertThat(result.at("/discriminator/mapping/Job").asString()).isEqualTo("#/components/schemas/JobView");
        assertThat(sent.path("kind").asString()).isEqualTo("DryRun");
        assertThat(schemas().at("/JobView/properties/kind/enum").toString()).isEqualTo("[\"Job\"]");
    }

    @Test
    void everyEnumIsTypedAsAString() throws Exception {
        List<String> mistyped = new ArrayList<>();
        collectMistypedEnums("", apiDocs(), mistyped);

        assertThat(mistyped).isEmpty();
    }

    @Test
    void requiredFieldsAreInEveryDryRunAndNoValueIsSentAsNull() throws Exception {
        JsonNode schemas = schemas();
        var result = dryRun(RequestExamples.ADVANCED);
        JsonNode body = bodyOf(result);

        assertThat(result.getResponse().getContentAsString()).doesNotContain(":null");
        assertThat(absentRequired(body, schemas.path("DryRunView"))).isEmpty();
        assertThat(absentRequired(body.path("plan"), schemas.path("JobPlan"))).isEmpty();
        assertThat(absentRequired(body.at("/plan/trainers"), schemas.path("RolePlan"))).isEmpty();
        assertThat(absentRequired(body.at("/plan/replicas/0"), schemas.path("Replica"))).isEmpty();
        assertThat(absentRequired(body.at("/plan/totals"), schemas.path("Resources"))).isEmpty();
        assertThat(absentRequired(body.at("/plan/derivations/0"), schemas.path("Derivation"))).isEmpty();
    }

    private static List<String> absentRequired(JsonNode sent, JsonNode schema) {
        List<String> absent = new ArrayList<>();
        schema.path("required").forEach(name -> {
            if (!sent.has(name.asString())) {
                absent.add(name.asString());
            }
        });
        return absent;
    }

    private static void collectMistypedEnums(String at, JsonNode node, List<String> mistyped) {
        if (node.isObject()) {
            if (node.has("enum") && !"string".equals(node.path("type").asString(""))) {
                mistyped.add(at);
            }
            node.propertyNames().forEach(name -> collectMistypedEnums(at + "/" + name, node.path(name), mistyped));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectMistypedEnums(at + "/" + i, node.path(i), mistyped);
            }
        }
    }

    @Test
    void everyFieldTheServiceSendsInADryRunIsInTheContract() throws Exception {
        JsonNode schemas = schemas();
        JsonNode body = bodyOf(dryRun(RequestExamples.ADVANCED));

        assertThat(missing(body, schemas.path("DryRunView"))).isEmpty();
        assertThat(missing(body.path("plan"), schemas.path("JobPlan"))).isEmpty();
        assertThat(missing(body.at("/plan/trainers"), schemas.path("RolePlan"))).isEmpty();
        assertThat(missing(body.at("/plan/totals"), schemas.path("Resources"))).isEmpty();
        assertThat(missing(body.at("/plan/replicas/0"), schemas.path("Replica"))).isEmpty();
        assertThat(missing(body.at("/plan/spec"), schemas.path("JobRequest"))).isEmpty();
    }

    private JsonNode apiDocs() throws Exception {
        return bodyOf(mvc.perform(get("/v3/api-docs")).andReturn());
    }

    private JsonNode schemas() throws Exception {
        return apiDocs().at("/components/schemas");
    }

    private static List<String> missing(JsonNode sent, JsonNode schema) {
        List<String> missing = new ArrayList<>();
        sent.propertyNames().forEach(name -> {
            if (!schema.path("properties").has(name)) {
                missing.add(name);
            }
        });
        return missing;
    }
}
