package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/**
 * docs/operations/local.md, "The local backend as a scheduler": {@code GET /capacity}, and a job that could never fit
 * this machine refused at submit and in a dry run (the test service has no GPUs and 64TB counted).
 */
class CapacityApiTest extends ApiTest {

    @Test
    void capacityShowsWhatTheMachineHasAndThatMemoryIsCountedNotEnforced() throws Exception {
        MvcResult result = mvc.perform(get("/capacity").accept(MediaType.APPLICATION_JSON)).andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(200);
        JsonNode capacity = bodyOf(result);
        assertThat(capacity.at("/total/gpus").asInt()).isEqualTo(8);
        assertThat(capacity.at("/gpus/7/index").asInt()).isEqualTo(7);
        assertThat(capacity.at("/gpus/7/name").asString()).isEqualTo("GPU 7");
        assertThat(capacity.at("/total/memory").asString()).isEqualTo("64Ti");
        assertThat(capacity.at("/total/cpus").asString()).isEqualTo("4000");
        assertThat(capacity.has("in_use")).isTrue();
        assertThat(capacity.path("enforced").asBoolean()).isFalse();
        assertThat(capacity.path("notes").toString()).contains("counted, not enforced");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aJobAskingForMoreGpusThanTheMachineHasIsRefusedSayingWhatItHas(boolean dryRun) throws Exception {
        MvcResult result = mvc.perform(post("/jobs").queryParam("dry_run", Boolean.toString(dryRun))
                .contentType(MediaType.APPLICATION_JSON)
                .content(json("{'name':'too-many-gpus','entry_point':'true','num_gpus':12}"))).andReturn();

        JsonNode problem = assertProblem(result, 400);
        assertThat(problem.path("errors").toString()).contains("num_gpus",
                "this machine has 8 GPUs; the job asks for 12");
        assertThat(mvc.perform(get("/jobs/too-many-gpus").accept(MediaType.APPLICATION_JSON)).andReturn()
                .getResponse().getStatus()).as("nothing was created").isEqualTo(404);
    }
}
