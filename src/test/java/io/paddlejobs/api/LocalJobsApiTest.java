package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The jobs API over real HTTP, on the local backend with real processes. */
class LocalJobsApiTest extends ApiTest {

    final JsonMapper json = JsonMapper.builder().build();

    @Test
    void resubmittingTheSameSpecReturnsTheExistingJobAndADifferentSpecIsAConflict() {
        assertThat(client.post("/jobs", body("retry", "sleep 3301")).statusCode()).isEqualTo(201);

        HttpResponse<String> again = client.post("/jobs", body("retry", "sleep 3301"));
        HttpResponse<String> other = client.post("/jobs", body("retry", "sleep 3302"));

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json.readTree(again.body()).get("name").asString()).isEqualTo("retry");
        assertThat(other.statusCode()).isEqualTo(409);
        assertThat(other.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(other.body()).contains("already exists", "different spec");
        client.post("/jobs/retry/cancel", "");
    }

    @Test
    void concurrentSubmissionsOfOneNameCreateExactlyOneJob() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> codes = pool.invokeAll(java.util.Collections.nCopies(16,
                    () -> client.post("/jobs", body("racy", "true")).statusCode()));
            List<Integer> statuses = codes.stream().map(f -> {
                try {
                    return f.get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
            assertThat(statuses).containsOnly(200, 201).filteredOn(code -> code == 201).hasSize(1);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void logsServeTheWholeLogTheTailAndFollowUntilTheReplicaEnds() {
        client.post("/jobs", body("chatty", "for i in 1 2 3; do echo line $i; done; sleep 1; echo last"));
        awaitPhase("chatty", "Succeeded");

        assertThat(client.get("/jobs/chatty/logs?role=trainer&index=0").body()).isEqualTo("line 1\nline 2\nline 3\nlast\n");
        assertThat(client.get("/jobs/chatty/logs?role=trainer&index=0&tail=2").body()).isEqualTo("line 3\nlast\n");
        // Attempts count from 0: its one attempt's log is the current one; there is no attempt 1.
        assertThat(client.get("/jobs/chatty/logs?role=trainer&index=0&attempt=0").body()).isEqualTo("line 1\nline 2\nline 3\nlast\n");
        HttpResponse<String> past = client.get("/jobs/chatty/logs?role=trainer&index=0&attempt=1");
        assertThat(past.statusCode()).isEqualTo(400);
        assertThat(past.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(past.body()).contains("attempt", "must be at most 0");

        client.post("/jobs", body("followed", "echo start; sleep 1; echo end"));
        HttpResponse<String> followed = client.get("/jobs/followed/logs?role=trainer&index=0&follow=true");
        assertThat(followed.body()).isEqualTo("start\nend\n");
    }

    @Test
    void stacksOfAFinishedJobAreA409NamingTheRuleAndThoseOfNoJobA404() {
        client.post("/jobs", body("ended", "true"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !List.of("Pending", "Running").contains(phase("ended")));
        assertThat(phase("ended")).isEqualTo("Succeeded");

        HttpResponse<String> taken = client.post("/jobs/ended/stacks", "");

        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(409);
        assertThat(taken.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(taken.body()).contains("Stacks are taken of a job's running processes", "has ended (Succeeded)");
        HttpResponse<String> kept = client.get("/jobs/ended/stacks");
        assertThat(kept.statusCode()).isEqualTo(200);
        assertThat(json.readTree(kept.body()).get("dumps").size()).isZero();
        assertThat(client.post("/jobs/no-such-job/stacks", "").statusCode()).isEqualTo(404);
        assertThat(client.get("/jobs/no-such-job/stacks").statusCode()).isEqualTo(404);
    }

    @Test
    void logsOfAReplicaThatDoesNotExistAre404() {
        client.post("/jobs", body("small", "true"));

        HttpResponse<String> response = client.get("/jobs/small/logs?role=trainer&index=7");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("no trainer 7");
    }

    @Test
    void cancelKeepsTheJobAsCancelledAndDeleteRemovesIt() {
        client.post("/jobs", body("stoppable", "sleep 3303"));
        awaitPhase("stoppable", "Running");

        HttpResponse<String> cancelled = client.post("/jobs/stoppable/cancel", "");
        assertThat(json.readTree(cancelled.body()).at("/status/phase").asString()).isEqualTo("Cancelled");
        assertThat(phase("stoppable")).isEqualTo("Cancelled");

        assertThat(client.delete("/jobs/stoppable").statusCode()).isEqualTo(204);
        assertThat(client.get("/jobs/stoppable/status").statusCode()).isEqualTo(404);
        assertThat(client.delete("/jobs/stoppable").statusCode()).isEqualTo(404);
    }

    @Test
    void actionsSayWhatTheCallerMayDoToAJob() {
        client.post("/jobs", body("actionable", "true"));

        assertThat(client.get("/jobs/actionable/actions").body()).isEqualTo("{\"cancel\":true,\"delete\":true,\"rerun\":true}");
        assertThat(client.get("/jobs/no-such-job/actions").statusCode()).isEqualTo(404);
    }

    @Test
    void listIsNewestFirstFiltersByPhaseAndLabelAndPages() {
        client.post("/jobs?namespace=listing", labelled("l-one", "true", "a"));
        client.post("/jobs?namespace=listing", labelled("l-two", "sleep 3304", "b"));
        client.post("/jobs?namespace=listing", labelled("l-three", "true", "a"));
        await().atMost(Duration.ofSeconds(30)).until(() -> phase("l-one", "listing").equals("Succeeded")
                && phase("l-three", "listing").equals("Succeeded"));

        assertThat(names("/jobs?namespace=listing")).containsExactly("l-three", "l-two", "l-one");
        assertThat(names("/jobs?namespace=listing&phase=Running")).containsExactly("l-two");
        assertThat(names("/jobs?namespace=listing&label_selector=team=a")).containsExactly("l-three", "l-one");
        String middle = client.getJson("/jobs/l-two/status?namespace=listing").path("created_at").asString();
        assertThat(names("/jobs?namespace=listing&created_since=" + middle)).containsExactly("l-three", "l-two");
        assertThat(names("/jobs?namespace=listing&created_before=" + middle)).containsExactly("l-one");
        assertThat(names("/jobs?namespace=listing&created_since=" + middle
                + "&created_before=2999-01-01t00:00:00%2B05:00&label_selector=team=a")).containsExactly("l-three");
        assertThat(names("/jobs?namespace=listing&created_since=2999-01-01T00:00:00Z&created_before=" + middle)).isEmpty();

        JsonNode first = json.readTree(client.get("/jobs?namespace=listing&limit=2").body());
        assertThat(first.get("items")).hasSize(2);
        String next = first.get("continue").asString();
        assertThat(names("/jobs?namespace=listing&limit=2&continue=" + next)).containsExactly("l-one");
        client.post("/jobs/l-two/cancel?namespace=listing", "");
    }

    @Test
    void badQueryParametersAreProblemsNamingTheParameter() {
        HttpResponse<String> namespace = client.get("/jobs/x/status?namespace=Not_A_Label");
        HttpResponse<String> limit = client.get("/jobs?limit=0");

        assertThat(namespace.statusCode()).isEqualTo(400);
        assertThat(namespace.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(namespace.body()).contains("namespace");
        assertThat(limit.statusCode()).isEqualTo(400);
        assertThat(limit.body()).contains("limit");
    }

    private List<String> names(String path) {
        JsonNode items = json.readTree(client.get(path).body()).get("items");
        return items.valueStream().map(item -> item.get("name").asString()).toList();
    }

    private void awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(30)).until(() -> phase(name).equals(phase));
    }

    private String phase(String name) {
        return phase(name, "default");
    }

    private String phase(String name, String namespace) {
        HttpResponse<String> response = client.get("/jobs/" + name + "/status?namespace=" + namespace);
        return response.statusCode() == 200 ? json.readTree(response.body()).get("phase").asString() : "none";
    }

    static String body(String name, String entryPoint) {
        return """
                {"name": "%s", "entry_point": "%s", "pservers": 1, "trainers": 1}""".formatted(name, entryPoint);
    }

    private static String labelled(String name, String entryPoint, String team) {
        return """
                {"name": "%s", "entry_point": "%s", "pservers": 1, "trainers": 1, "labels": {"team": "%s"}}"""
                .formatted(name, entryPoint, team);
    }
}
