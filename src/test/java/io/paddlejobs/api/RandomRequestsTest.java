package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Thousands of generated and mutated bodies at {@code /jobs?dry_run=true}: whatever a client
 * sends, the answer is never a 5xx, and every refusal is a problem document. Replay a failure
 * with {@code -Drandom.seed=<seed>}; try other inputs with another seed or {@code -Drandom.requests=<n>}.
 */
class RandomRequestsTest extends ApiTest {

    private static final int REQUESTS = Integer.getInteger("random.requests", 3000);
    private static final long SEED = Long.getLong("random.seed", 20_171_205L);

    @Test
    void noGeneratedRequestGetsAServerErrorAndEveryRefusalIsAProblemDocument() throws Exception {
        RequestGenerator generator = new RequestGenerator(SEED, json);
        List<String> failures = new ArrayList<>();
        int accepted = 0;

        for (int i = 0; i < REQUESTS; i++) {
            byte[] body = generator.next();
            MockHttpServletResponse response = mvc.perform(post("/jobs").queryParam("dry_run", "true")
                    .contentType(MediaType.APPLICATION_JSON).content(body)).andReturn().getResponse();
            String problem = problemWith(response);
            if (problem != null) {
                failures.add("#%d %s%n  body: %s%n  answer: %s".formatted(i, problem,
                        new String(body, StandardCharsets.UTF_8), response.getContentAsString()));
            }
            accepted += response.getStatus() == 200 ? 1 : 0;
        }

        assertThat(failures).as("seed %d: %d of %d requests answered wrongly; the first ones:%n%s", SEED,
                failures.size(), REQUESTS, String.join("\n", failures.subList(0, Math.min(5, failures.size()))))
                .isEmpty();
        // Generated requests that all fail would test only the parser: keep the mix honest.
        assertThat(accepted).as("accepted requests").isBetween(REQUESTS / 20, REQUESTS * 19 / 20);
    }

    /** What is wrong with an answer, or null when it is fine. */
    private String problemWith(MockHttpServletResponse response) throws Exception {
        int status = response.getStatus();
        String body = response.getContentAsString();
        if (status >= 500) {
            return "server error " + status;
        }
        if (status == 200) {
            return parse(body) != null && parse(body).has("plan") ? null : "200 without a plan";
        }
        if (status < 400) {
            return "unexpected status " + status;
        }
        if (response.getContentType() == null
                || !MediaType.parseMediaType(response.getContentType()).isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)) {
            return status + " with content type " + response.getContentType();
        }
        JsonNode problem = parse(body);
        if (problem == null || problem.path("title").asString("").isBlank()) {
            return status + " without a title";
        }
        if (status == 400 && problem.path("type").asString("").endsWith("invalid-request")
                && problem.path("errors").isEmpty()) {
            return "invalid-request problem without errors";
        }
        if (body.contains("Exception") || body.contains("java.")) {
            return status + " naming internals";
        }
        return null;
    }

    private JsonNode parse(String body) {
        try {
            return json.readTree(body);
        } catch (JacksonException e) {
            return null;
        }
    }
}
