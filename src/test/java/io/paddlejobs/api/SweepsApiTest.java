package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.SyntheticTrials;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/**
 * Sweeps over real HTTP on the local backend, their trials real processes (a plain Python trainer whose
 * loss curve its parameter sets: {@link SyntheticTrials}).
 */
class SweepsApiTest extends ApiTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private final SyntheticTrials trials = SyntheticTrials.in(DATA_ROOT.resolve("synthetic"));

    static Stream<Arguments> badSweeps() {
        String template = "'template': {'mode': 'collective', 'entry_point': 'true', 'num_cpus': 1}";
        return Stream.of(
                Arguments.of("an empty list of values", "{" + template + ", 'parameters': [{'name': 'lr', 'env': 'LR', 'values': []}]}",
                        "parameters[0].values", "size must be between 1"),
                Arguments.of("an empty range", "{" + template + ", 'parameters': [{'name': 'lr', 'env': 'LR', 'min': 1, 'max': 1, 'step': 1}]}",
                        "parameters[0].min", "is empty"),
                Arguments.of("a grid over a range without a step", "{" + template
                                + ", 'parameters': [{'name': 'lr', 'env': 'LR', 'min': 0.001, 'max': 0.1}]}",
                        "parameters[0].step", "a grid needs every parameter's points"),
                Arguments.of("a random search over a range without max_trials", "{" + template + ", 'search': 'random',"
                                + " 'parameters': [{'name': 'lr', 'env': 'LR', 'min': 0.001, 'max': 0.1, 'scale': 'log'}]}",
                        "max_trials", "has no end"),
                Arguments.of("a value out of the request's bounds", "{" + template
                                + ", 'parameters': [{'name': 'cpus', 'field': 'num_cpus', 'values': [1, 0]}]}",
                        "parameters[0].values[1]", "sets num_cpus to 0: must be greater than or equal to 1"),
                Arguments.of("a value that breaks a planning rule", "{'template': {'mode': 'collective', 'entry_point': 'true',"
                                + " 'trainer_gpu': 2}, 'parameters': [{'name': 'gpus', 'field': 'num_gpus', 'values': [2, 3]}]}",
                        "parameters[0].values[1]", "sets num_gpus to 3"),
                Arguments.of("a reserved variable", "{" + template
                                + ", 'parameters': [{'name': 'rank', 'env': 'PADDLE_TRAINER_ID', 'values': ['1']}]}",
                        "parameters[0].values[0]", "sets env to 1"),
                Arguments.of("a template with a name", "{'template': {'name': 'x', 'entry_point': 'true'},"
                                + " 'parameters': [{'name': 'lr', 'env': 'LR', 'values': [1]}]}",
                        "template.name", "must be left out"),
                Arguments.of("a template field of the wrong type", "{'template': {'entry_point': 'true', 'num_cpus': '2'},"
                                + " 'parameters': [{'name': 'lr', 'env': 'LR', 'values': [1]}]}",
                        "template.num_cpus", "must be a whole number"),
                Arguments.of("early stopping without an objective", "{" + template
                                + ", 'parameters': [{'name': 'lr', 'env': 'LR', 'values': [1]}], 'early_stopping': {'rule': 'median'}}",
                        "early_stopping", "needs an objective"),
                Arguments.of("two targets", "{" + template
                                + ", 'parameters': [{'name': 'lr', 'env': 'LR', 'arg': '--lr', 'values': [1]}]}",
                        "parameters[0].env", "exactly one of env, arg and field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSweeps")
    void aBadSweepIsAProblemNamingTheFieldAndTheRuleAndCreatesNothing(String what, String body, String field,
                                                                     String rule) throws Exception {
        String named = json(body).replaceFirst("\\{", "{\"name\": \"bad-sweep\", ");
        MvcResult result = mvc.perform(post("/sweeps").contentType(MediaType.APPLICATION_JSON).content(named)).andReturn();

        JsonNode problem = assertProblem(result, 400);
        List<String> errors = new ArrayList<>();
        problem.path("errors").forEach(e -> errors.add(e.path("field").asString() + ": " + e.path("message").asString()));
        assertThat(errors).as(what).anySatisfy(error -> assertThat(error).startsWith(field + ":").contains(rule));
        assertThat(mvc.perform(get("/sweeps/bad-sweep")).andReturn().getResponse().getStatus()).isEqualTo(404);
        assertThat(client.getJson("/jobs?label_selector=sweep.paddlejobs.io/sweep=bad-sweep").path("items")).isEmpty();
    }

    /**
     * Trials whose order is known hold before step 10 of 20 until released: the test sees what each rule
     * decided with every trial at a known step. The median rule (four at once) and ASHA (one at a time, the
     * worst two last) each stop the worst two before half their steps; the best finishes and is named.
     */
    @Test
    void theMedianRuleAndAshaStopTheWorstTrialsBeforeHalfTheirStepsAndTheBestFinishes() {
        String env = "'env': {'STEPS': '20', 'HOLD_AT': '10', 'RELEASE_DIR': '%s'}".formatted(trials.releaseDir());
        String template = "'template': {'mode': 'collective', 'entry_point': '%s', 'num_cpus': 1, %s}"
                .formatted(trials.entryPoint(), env);
        String objective = "'objective': {'metric': 'loss', 'goal': 'minimize'}";
        created(json("{'name': 'median', " + template + ", 'parallel': 4, " + objective + ","
                + " 'parameters': [{'name': 'quality', 'arg': '--quality', 'values': [0.1, 0.4, 0.7, 1.0]}],"
                + " 'early_stopping': {'rule': 'median', 'min_step': 2, 'min_trials': 3}}"));
        created(json("{'name': 'asha', " + template + ", 'parallel': 1, " + objective + ","
                + " 'parameters': [{'name': 'quality', 'env': 'QUALITY', 'values': [0.4, 0.1, 1.0, 0.7]}],"
                + " 'early_stopping': {'rule': 'asha', 'min_step': 4, 'max_step': 20, 'reduction_factor': 2}}"));

        // median: every trial held at step 9 has been judged there, or was stopped
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(sweep("median").path("trials")).allSatisfy(trial ->
                assertThat(trial.path("reason").asString().equals("EarlyStopped") || trial.path("judged_step").asLong() == 9)
                        .as(trial.toString()).isTrue()));
        // asha, one trial at a time: released once it went on past its last rung before step 10, unless stopped
        for (int number = 1; number <= 4; number++) {
            String job = "asha-t" + number;
            int index = number - 1;
            JsonNode trial = await().atMost(DEADLINE).until(() -> sweep("asha").path("trials").get(index),
                    t -> t.path("reason").asString().equals("EarlyStopped") || t.path("rungs").has("8"));
            if (!trial.path("reason").asString().equals("EarlyStopped")) {
                trials.release(job);
            }
        }
        Stream.of("median-t1", "median-t2").forEach(trials::release);

        JsonNode median = awaitEnd("median");
        JsonNode asha = awaitEnd("asha");
        for (JsonNode sweep : List.of(median, asha)) {
            assertThat(sweep.path("phase").asString()).as(sweep.toString()).isEqualTo("Succeeded");
            assertThat(stopped(sweep)).as(sweep.toString()).containsExactlyInAnyOrder(0.7, 1.0);
            sweep.path("trials").forEach(trial -> {
                if (trial.path("reason").asString().equals("EarlyStopped")) {
                    assertThat(trial.path("phase").asString()).isEqualTo("Cancelled");
                    assertThat(trial.path("last_step").asLong()).as("stopped before half its steps: %s", trial).isLessThan(10);
                } else {
                    assertThat(trial.path("phase").asString()).as(trial.toString()).isEqualTo("Succeeded");
                    assertThat(trial.path("last_step").asLong()).isEqualTo(19);
                }
            });
            assertThat(sweep.path("best").path("parameters").path("quality").asDouble()).as(sweep.toString()).isEqualTo(0.1);
            assertThat(sweep.path("reason").asString()).isEqualTo("Completed");
        }
        // A stopped trial's own status says so: it did not fail, and it did not finish
        JsonNode status = client.status("median-t4");
        assertThat(status.path("phase").asString()).isEqualTo("Cancelled");
        assertThat(status.path("reason").asString()).isEqualTo("EarlyStopped");
        assertThat(status.path("message").asString()).contains("median stopping rule");
    }

    @Test
    void aGridRunsEachTrialAsALabelledJobAndTheComparisonShowsTheirDifferences() {
        created(json("{'name': 'grid', 'template': {'mode': 'collective', 'entry_point': '%s', 'num_cpus': 1},"
                .formatted(trials.entryPoint()) + " 'parallel': 2, 'objective': {'metric': 'loss', 'at': 'best'},"
                + " 'parameters': [{'name': 'quality', 'env': 'QUALITY', 'values': [0.5, 0.25]},"
                + "                {'name': 'steps', 'env': 'STEPS', 'min': 3, 'max': 5, 'step': 2}]}"));

        JsonNode sweep = awaitEnd("grid");

        assertThat(sweep.path("trials")).hasSize(4);
        assertThat(mostAtOnce(client, sweep.path("trials"))).as("trials unfinished at once, parallel 2").isBetween(1, 2);
        assertThat(sweep.path("trials").get(1).path("parameters").toString()).isEqualTo("{\"quality\":0.5,\"steps\":5}");
        assertThat(sweep.path("best").path("name").asString()).isEqualTo("grid-t4"); // 0.25 + 1/5
        JsonNode labelled = client.getJson("/jobs?label_selector=sweep.paddlejobs.io/sweep=grid,sweep.paddlejobs.io/quality=0.25");
        assertThat(labelled.path("items")).extracting(item -> item.path("name").asString())
                .containsExactlyInAnyOrder("grid-t3", "grid-t4");
        assertThat(client.getJson("/jobs/grid-t4").path("plan").path("spec").path("env").path("STEPS").asString()).isEqualTo("5");

        JsonNode compared = client.getJson("/compare?jobs=grid-t1,grid-t4");
        assertThat(compared.path("parameters")).extracting(JsonNode::asString).containsExactly("env.QUALITY", "env.STEPS");
        assertThat(compared.path("runs").get(1).path("metrics").path("loss").path("last_step").asLong()).isEqualTo(4);
        assertThat(compared.path("requests")).filteredOn(f -> f.path("field").asString().equals("entry_point"))
                .singleElement().satisfies(f -> assertThat(f.path("differs").asBoolean()).isFalse());
        HttpResponse<String> csv = client.get("/compare?sweep=grid", "text/csv");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.body().lines().toList()).hasSize(5).first().isEqualTo("run,phase,reason,quality,steps,"
                + "loss last,loss last step,loss min,loss max,loss best");
        assertThat(csv.body()).contains("grid-t4,Succeeded,Completed,0.25,5,0.45,4,0.45,1.25,0.45");
    }

    @Test
    void anObjectiveNoTrialReportsIsAWarningInTheStatusAndAtTheNextSubmitOfTheSameProgram() {
        String sweep = "{'name': '%s', 'template': {'mode': 'collective', 'entry_point': '" + trials.entryPoint() + "',"
                + " 'num_cpus': 1, 'env': {'STEPS': '2'}}, 'objective': {'metric': 'los'},"
                + " 'parameters': [{'name': 'quality', 'env': 'QUALITY', 'values': [0.5]}]}";
        created(json(sweep.formatted("misspelt")));

        JsonNode ended = awaitEnd("misspelt");
        HttpResponse<String> again = client.post("/sweeps", json(sweep.formatted("misspelt-again")));

        assertThat(ended.path("phase").asString()).isEqualTo("Succeeded");
        assertThat(ended.path("best").path("name").isMissingNode()).as(ended.toString()).isTrue();
        assertThat(ended.path("warnings")).extracting(JsonNode::asString)
                .anySatisfy(w -> assertThat(w).startsWith("no trial has reported los; they reported ").contains("loss"));
        assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
        assertThat(again.headers().allValues("Warning"))
                .anySatisfy(w -> assertThat(w).contains("reported").contains("not los: is objective.metric the name"));
    }

    @Test
    void aCancelledSweepCancelsItsRunningTrialsAndStartsNoMore() throws Exception {
        created(json("{'name': 'cancelled', 'template': {'mode': 'collective', 'entry_point': 'sleep 3400', 'num_cpus': 1},"
                + " 'parallel': 2, 'parameters': [{'name': 'n', 'env': 'N', 'values': [1, 2, 3, 4]}]}"));
        await().atMost(DEADLINE).until(() -> running("cancelled") == 2);

        HttpResponse<String> cancelled = client.post("/sweeps/cancelled/cancel", "");

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        JsonNode sweep = ServiceClient.parse(cancelled.body());
        assertThat(sweep.path("phase").asString()).isEqualTo("Cancelled");
        assertThat(client.status("cancelled-t1").path("phase").asString()).isEqualTo("Cancelled");
        assertThat(client.status("cancelled-t2").path("phase").asString()).isEqualTo("Cancelled");
        assertThat(client.get("/jobs/cancelled-t3/status", "application/json").statusCode()).isEqualTo(404);

        assertThat(client.delete("/sweeps/cancelled").statusCode()).isEqualTo(204);
        assertThat(client.get("/jobs/cancelled-t1/status", "application/json").statusCode()).isEqualTo(404);
        assertThat(client.get("/sweeps/cancelled", "application/json").statusCode()).isEqualTo(404);
        assertThat(Files.exists(DATA_ROOT)).isTrue();
    }

    private void created(String body) {
        HttpResponse<String> response = client.post("/sweeps", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(response.headers().firstValue("Location")).isPresent();
    }

    private JsonNode sweep(String name) {
        return client.getJson("/sweeps/" + name);
    }

    private long running(String name) {
        List<JsonNode> trials = new ArrayList<>();
        sweep(name).path("trials").forEach(trials::add);
        return trials.stream().filter(t -> t.path("phase").asString().equals("Running")).count();
    }

    private JsonNode awaitEnd(String name) {
        return await().atMost(DEADLINE).until(() -> sweep(name), sweep -> sweep.has("finished_at"));
    }

    /**
     * The most trials unfinished at once, from their jobs' own times: at each trial's creation, the trials
     * created no later and not yet finished (itself included).
     */
    static int mostAtOnce(ServiceClient client, JsonNode trials) {
        List<Instant[]> spans = new ArrayList<>();
        trials.forEach(trial -> {
            JsonNode status = client.status(trial.path("name").asString());
            spans.add(new Instant[] {Instant.parse(status.path("created_at").asString()),
                    Instant.parse(status.path("finished_at").asString())});
        });
        return spans.stream().mapToInt(at -> (int) spans.stream()
                .filter(other -> !other[0].isAfter(at[0]) && other[1].isAfter(at[0])).count()).max().orElse(0);
    }

    private static List<Double> stopped(JsonNode sweep) {
        List<Double> qualities = new ArrayList<>();
        sweep.path("trials").forEach(trial -> {
            if (trial.path("reason").asString().equals("EarlyStopped")) {
                qualities.add(trial.path("parameters").path("quality").asDouble());
            }
        });
        return qualities;
    }
}
