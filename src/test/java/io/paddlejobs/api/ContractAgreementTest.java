package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Where a client generated from the contract (or Schemathesis run with its defaults) found the contract
 * and the service disagreeing: what the contract admits the service takes, and what the service refuses
 * the contract refuses too.
 */
class ContractAgreementTest extends ApiTest {

    @Test
    void aTimeoutBelowTheContractsMinimumIsRefusedByTheListToo() throws Exception {
        JsonNode minimum = contract().at("/paths/~1jobs/get/parameters");
        assertThat(minimum.toString()).contains("\"name\":\"timeout_seconds\"").contains("\"minimum\":1");

        JsonNode problem = assertProblem(mvc.perform(get("/jobs").queryParam("timeout_seconds", "0")).andReturn(), 400);

        assertThat(problem.path("errors").toString()).contains("timeout_seconds");
        assertThat(mvc.perform(get("/jobs").queryParam("timeout_seconds", "5")).andReturn().getResponse().getStatus())
                .isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"4418-03-10T02:20:57+21:52", "2026-12-01T12:00:00-23:59", "2026-12-01t12:00:00.5z"})
    void everyRfc3339TimeTheContractAdmitsIsTakenEvenPastJavaTimesOffsets(String time) throws Exception {
        var answer = mvc.perform(get("/jobs").queryParam("created_since", time)).andReturn();

        assertThat(answer.getResponse().getStatus()).as(answer.getResponse().getContentAsString()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "trainer_mem", "pserver_mem"})
    void aZeroQuantityIsOutsideTheContractAndRefused(String field) throws Exception {
        Pattern quantity = Pattern.compile(contract().at("/components/schemas/JobRequest/properties/" + field + "/pattern")
                .asString());
        assertThat(quantity.matcher("0").find()).isFalse();
        assertThat(quantity.matcher("0.0Gi").find()).isFalse();
        assertThat(quantity.matcher("512Mi").find()).isTrue();
        assertThat(quantity.matcher("0.5Gi").find()).isTrue();
        // An answer may show 0 (a collective job's pservers): the pattern binds requests only.
        assertThat(contract().at("/components/schemas/Resources/properties/memory/pattern").isMissingNode()).isTrue();

        JsonNode problem = assertProblem(dryRun(json("{'entry_point':'true','" + field + "':'0'}")), 400);

        assertThat(problem.path("errors").get(0).path("field").asString()).isEqualTo(field);
    }

    @Test
    void quantitiesWithWhiteSpaceAreOutsideTheContractAndRefused() throws Exception {
        assertProblem(dryRun(json("{'entry_point':'true','memory':' 2Gi'}")), 400);
    }

    @Test
    void requestBodiesAdmitNoOtherPropertiesByContractAsInFact() throws Exception {
        JsonNode schemas = contract().at("/components/schemas");
        assertThat(schemas.at("/JobRequest/additionalProperties").asBoolean(true)).isFalse();
        assertThat(schemas.at("/RerunRequest/additionalProperties").asBoolean(true)).isFalse();

        client.submit(json("{'name':'agreed','entry_point':'true'}"), "default");
        var refused = mvc.perform(post("/jobs/agreed/rerun").contentType(MediaType.APPLICATION_JSON)
                .content(json("{'trainers':1,'epochs':3}"))).andReturn();

        assertThat(assertProblem(refused, 400).path("errors").toString()).contains("epochs");
    }

    private JsonNode contract() throws Exception {
        return bodyOf(mvc.perform(get("/v3/api-docs")).andReturn());
    }
}
