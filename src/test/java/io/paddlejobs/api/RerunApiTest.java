package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** POST /jobs/{name}/rerun on the local backend: a new job from an earlier one's request, with changes. */
class RerunApiTest extends ApiTest {

    private static final String NAMESPACE = "reruns";


    @Test
    void aFinishedJobRunAgainIsANewJobWithTheSameRequestUnderTheFirstFreeNumberedName() {
        client.submit("""
                {"name": "nightly", "entry_point": "echo trained", "trainers": 1, "pservers": 1,
                 "max_run_time": "1h30m", "memory": "3Gi", "env": {"EPOCHS": "2"}, "labels": {"team": "nlp"},
                 "max_restarts": 1, "restart_on": ["infrastructure", 3]}""", NAMESPACE);
        client.awaitPhase("nightly", NAMESPACE, "Succeeded", Duration.ofSeconds(60));

        HttpResponse<String> second = rerun("nightly", "");
        HttpResponse<String> third = rerun("nightly", "{}");
        HttpResponse<String> ofTheSecond = rerun("nightly-2", null);

        assertThat(second.statusCode()).as(second.body()).isEqualTo(201);
        assertThat(second.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/jobs/nightly-2?namespace=" + NAMESPACE));
        assertThat(nameOf(third)).isEqualTo("nightly-3");
        assertThat(nameOf(ofTheSecond)).isEqualTo("nightly-4");
        JsonNode earlier = spec("nightly");
        JsonNode again = spec("nightly-2");
        ((ObjectNode) again).put("name", "nightly");
        assertThat(again).isEqualTo(earlier);
        assertThat(client.awaitPhase("nightly-2", NAMESPACE, "Succeeded", Duration.ofSeconds(60))
                .get("phase").asString()).isEqualTo("Succeeded");
    }

    @Test
    void aRunningJobRunAgainWithChangesTakesTheChangesAndTheGivenName() {
        client.submit("""
                {"name": "running", "entry_point": "sleep 3600", "trainers": 1, "pservers": 1,
                 "labels": {"team": "nlp"}, "max_run_time": "2h"}""", NAMESPACE);

        HttpResponse<String> wider = rerun("running", """
                {"name": "running-wide", "trainers": 2, "max_run_time": "30m", "labels": null}""");

        assertThat(wider.statusCode()).as(wider.body()).isEqualTo(201);
        JsonNode spec = spec("running-wide");
        assertThat(spec.get("trainers").asInt()).isEqualTo(2);
        assertThat(spec.get("max_run_time").asString()).isEqualTo("PT30M");
        assertThat(spec.path("labels").isEmpty()).as(spec.toString()).isTrue();
        assertThat(spec.get("entry_point").asString()).isEqualTo("sleep 3600");
        assertThat(client.status("running", NAMESPACE).get("phase").asString()).isIn("Pending", "Running");
        client.post("/jobs/running/cancel?namespace=" + NAMESPACE, "");
        client.post("/jobs/running-wide/cancel?namespace=" + NAMESPACE, "");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"trainers": 0}                 | trainers    | must be greater than or equal to 1
            {"num_gpu": 1}                  | num_gpu     | did you mean num_gpus?
            {"max_run_time": "2 hours"}     | max_run_time| such as 90m
            {"entry_point": null}           | entry_point | must not be blank
            {"name": "Not_A_Label"}         | name        | lower-case letters
            {"trainers": "four"}            | trainers    | must be
            [1, 2]                          | (body)      | must be a JSON object
            {"trainers": null, "num_cpus": 3, "trainer_cpu": 2} | trainer_cpu | is not a multiple of""")
    void aBadChangeIsAProblemNamingTheFieldAndCreatesNothing(String body, String field, String message)
            throws Exception {
        client.submit("""
                {"name": "template", "entry_point": "true", "trainers": 1, "pservers": 1}""", NAMESPACE);

        HttpResponse<String> refused = rerun("template", body);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = json.readTree(refused.body());
        assertThat(problem.get("errors")).anySatisfy(error -> {
            assertThat(error.get("field").asString()).isEqualTo(field);
            assertThat(error.get("message").asString()).containsIgnoringCase(message);
        });
        assertThat(client.get("/jobs/template-2?namespace=" + NAMESPACE).statusCode()).isEqualTo(404);
    }

    @Test
    void anUnknownJobIs404() throws Exception {
        HttpResponse<String> missing = rerun("never-was", "{}");

        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json.readTree(missing.body()).get("detail").asString()).contains("never-was");
    }

    @Test
    void aDryRunPlansTheNewJobAndStartsNothing() throws Exception {
        client.submit("""
                {"name": "planned", "entry_point": "true", "trainers": 1, "pservers": 1}""", NAMESPACE);

        HttpResponse<String> dry = client.post("/jobs/planned/rerun?dry_run=true&namespace=" + NAMESPACE,
                "{\"trainers\": 3}");

        assertThat(dry.statusCode()).as(dry.body()).isEqualTo(200);
        JsonNode plan = json.readTree(dry.body());
        assertThat(plan.get("kind").asString()).isEqualTo("DryRun");
        assertThat(plan.get("name").asString()).isEqualTo("planned-2");
        assertThat(plan.at("/plan/trainers/count").asInt()).isEqualTo(3);
        assertThat(client.get("/jobs/planned-2?namespace=" + NAMESPACE).statusCode()).isEqualTo(404);
    }

    @Test
    void aGivenNameTakenByAnotherJobIsAConflict() {
        client.submit("""
                {"name": "first", "entry_point": "true", "trainers": 1, "pservers": 1}""", NAMESPACE);
        client.submit("""
                {"name": "taken", "entry_point": "false", "trainers": 1, "pservers": 1}""", NAMESPACE);

        HttpResponse<String> conflict = rerun("first", "{\"name\": \"taken\"}");

        assertThat(conflict.statusCode()).as(conflict.body()).isEqualTo(409);
        assertThat(conflict.body()).contains("different spec");
    }

    @Test
    void aLongNameStaysWithinTheNameLimit() {
        String longName = "a".repeat(JobRequestBody.MAX_NAME_LENGTH);
        client.submit("{\"name\": \"" + longName + "\", \"entry_point\": \"true\", \"trainers\": 1, \"pservers\": 1}",
                NAMESPACE);

        HttpResponse<String> again = rerun(longName, "{}");

        assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
        assertThat(nameOf(again)).isEqualTo("a".repeat(JobRequestBody.MAX_NAME_LENGTH - 2) + "-2");
    }

    private HttpResponse<String> rerun(String job, String body) {
        return client.send("POST", "/jobs/" + job + "/rerun?namespace=" + NAMESPACE, body);
    }

    private String nameOf(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return json.readTree(response.body()).get("name").asString();
    }

    private JsonNode spec(String job) {
        return client.getJson("/jobs/" + job + "?namespace=" + NAMESPACE).at("/plan/spec");
    }
}
