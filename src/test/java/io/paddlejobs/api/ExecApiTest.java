package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code debug_hold} and {@code POST /jobs/{name}/exec} through the running service, with real processes: a held
 * job answers a command's output and exit code as lines of JSON; what is not held, not there or not well formed is a
 * problem naming the rule, and a {@code debug_hold} past the operator's bound creates nothing.
 */
class ExecApiTest extends ApiTest {

    private static final String NAMESPACE = "held";

    @Test
    void aHeldReplicaRunsACommandInItsDirectoryAndEnvironmentAndAnswersItsOutputThenItsExitCode() {
        client.submit("""
                {"name": "crashes", "entry_point": "echo from-the-replica > note.txt; exit 3", "trainers": 1, "mode": "collective",
                 "debug_hold": "10m"}""", NAMESPACE);
        JsonNode held = awaitHeld("crashes");
        assertThat(held.get("phase").asString()).isEqualTo("Running");
        assertThat(held.get("message").asString()).contains("trainer-0 exited with code 3", "held until",
                "paddle-jobs exec crashes --role trainer --index 0", "then the job fails");

        HttpResponse<String> answer = exec("crashes", "role=trainer&index=0",
                "[\"sh\", \"-c\", \"cat note.txt; echo rank-$PADDLE_TRAINER_ID; exit 5\"]");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/x-ndjson"));
        List<JsonNode> lines = answer.body().lines().map(json::readTree).toList();
        assertThat(lines.subList(0, lines.size() - 1).stream().map(line -> line.get("output").asString())
                .reduce("", String::concat)).isEqualTo("from-the-replica\nrank-0\n");
        assertThat(lines.get(lines.size() - 1).get("exit_code").asInt()).isEqualTo(5);

        assertRefused(exec("crashes", "role=trainer&index=1", "[\"true\"]"), 404, null, "trainer");
        assertRefused(exec("crashes", "role=worker&index=0", "[\"true\"]"), 400, "role", "pserver|trainer");
        assertRefused(exec("crashes", "index=0", "[]"), 400, "command", "between 1 and 256");

        client.post("/jobs/crashes/cancel?namespace=" + NAMESPACE, "");
        assertThat(client.status("crashes", NAMESPACE).get("phase").asString()).isEqualTo("Cancelled");
        assertRefused(exec("crashes", "index=0", "[\"true\"]"), 409, null, "not held now");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            10 minutes | such as 10m
            0s         | longer than 0
            31m        | paddlejobs.limits.max-debug-hold
            """)
    void aDebugHoldThatIsMalformedOrOverTheBoundIsAProblemNamingItAndCreatesNothing(String hold, String words) {
        HttpResponse<String> refused = client.post("/jobs?namespace=" + NAMESPACE, """
                {"name": "over-held", "entry_point": "true", "debug_hold": "%s"}""".formatted(hold));

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(json.readTree(refused.body()).get("errors")).anySatisfy(error -> {
            assertThat(error.get("field").asString()).isEqualTo("debug_hold");
            assertThat(error.get("message").asString()).contains(words);
        });
        assertThat(client.get("/jobs/over-held?namespace=" + NAMESPACE).statusCode()).isEqualTo(404);
    }

    private JsonNode awaitHeld(String job) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> "Held".equals(client.status(job, NAMESPACE).path("reason").asString()));
        return client.status(job, NAMESPACE);
    }

    private HttpResponse<String> exec(String job, String query, String command) {
        return client.post("/jobs/%s/exec?%s&namespace=%s".formatted(job, query, NAMESPACE),
                "{\"command\": " + command + "}");
    }

    private void assertRefused(HttpResponse<String> response, int status, String field, String words) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = json.readTree(response.body());
        if (field == null) {
            assertThat(problem.get("detail").asString()).contains(words);
        } else {
            assertThat(problem.get("errors")).anySatisfy(error -> {
                assertThat(error.get("field").asString()).startsWith(field);
                assertThat(error.get("message").asString()).contains(words);
            });
        }
    }
}
