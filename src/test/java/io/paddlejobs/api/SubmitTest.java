package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/** docs/api.md: a real submit (trivial entry points on the local backend) and its answers. */
class SubmitTest extends ApiTest {

    private static final String NAMESPACE = "submit-tests";
    private static final String QUICK = "{'name':'%s','entry_point':'true','pserver_entry_point':'sleep 30','trainers':1}";

    @Test
    void submitAnswersCreatedWithLocationAndAnAbsoluteStatusUrl() throws Exception {
        MvcResult result = submit(QUICK.formatted("quick-created"));

        assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode body = bodyOf(result);
        assertThat(body.path("status_url").asString())
                .isEqualTo("http://localhost/jobs/quick-created/status?namespace=" + NAMESPACE);
        assertThat(result.getResponse().getHeader("Location"))
                .isEqualTo("http://localhost/jobs/quick-created?namespace=" + NAMESPACE);
        assertThat(mvc.perform(get(body.path("status_url").asString())).andReturn().getResponse().getStatus())
                .isEqualTo(200);
    }

    @Test
    void jobWhoseTrainersExitZeroSucceeds() throws Exception {
        submit(QUICK.formatted("quick-success"));

        await().atMost(Duration.ofSeconds(30)).until(() -> "Succeeded".equals(phaseOf("quick-success")));
    }

    @Test
    void resubmittingTheIdenticalSpecReturnsTheExistingJob() throws Exception {
        submit(QUICK.formatted("quick-retry"));

        MvcResult again = submit(QUICK.formatted("quick-retry"));

        assertThat(again.getResponse().getStatus()).isEqualTo(200);
        assertThat(bodyOf(again).path("name").asString()).isEqualTo("quick-retry");
    }

    @Test
    void submittingAnotherSpecUnderATakenNameIsAConflictProblem() throws Exception {
        submit(QUICK.formatted("quick-taken"));

        MvcResult other = submit(json("{'name':'quick-taken','entry_point':'echo other'}"));

        JsonNode problem = assertProblem(other, 409);
        assertThat(problem.path("detail").asString()).contains("quick-taken");
    }

    @Test
    void deletedJobIsGone() throws Exception {
        submit(QUICK.formatted("quick-deleted"));

        assertThat(mvc.perform(delete("/jobs/quick-deleted").queryParam("namespace", NAMESPACE)).andReturn()
                .getResponse().getStatus()).isEqualTo(204);
        assertProblem(mvc.perform(get("/jobs/quick-deleted").queryParam("namespace", NAMESPACE)).andReturn(), 404);
    }

    private MvcResult submit(String body) throws Exception {
        return mvc.perform(post("/jobs").queryParam("namespace", NAMESPACE)
                .contentType(MediaType.APPLICATION_JSON).content(json(body))).andReturn();
    }

    private String phaseOf(String job) throws Exception {
        return bodyOf(mvc.perform(get("/jobs/{name}/status", job).queryParam("namespace", NAMESPACE)).andReturn())
                .path("phase").asString();
    }
}
