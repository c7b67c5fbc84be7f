package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.metrics.MetricsArchive;
import io.paddlejobs.planning.Role;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A job its backend forgot stays readable from the embedded history (the H2 file under the data
 * root): status, log, metrics, listing, and a delete that removes it from the history too.
 */
class JobHistoryApiTest extends ApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(120);

    @Autowired
    JobBackend backend;

    @Autowired
    JobHistory history;

    @Autowired
    MetricsArchive archive;

    @Test
    void aFinishedJobTheBackendForgotIsServedFromTheHistoryMarkedArchived() {
        client.submit(LocalJobsApiTest.body("remembered", "echo first; echo second"));
        client.awaitPhase("remembered", "Succeeded", WITHIN);
        JobKey key = new JobKey("default", "remembered");
        // The recorder writes on its own thread: the tail is kept once it wrote the finished job.
        await().atMost(WITHIN).until(() -> history.keptLog(key, Role.TRAINER, 0).isPresent());
        assertThat(client.status("remembered").path("archived").asBoolean()).isFalse();

        assertThat(backend.delete(key)).isTrue();

        JsonNode status = client.status("remembered");
        assertThat(status.path("phase").asString()).isEqualTo("Succeeded");
        assertThat(status.path("archived").asBoolean()).isTrue();
        assertThat(client.getJson("/jobs/remembered").path("plan").path("name").asString()).isEqualTo("remembered");
        assertThat(client.logs("remembered", "role=trainer&index=0")).isEqualTo("first\nsecond\n");
        assertThat(client.logs("remembered", "role=trainer&index=0&tail=1")).isEqualTo("second\n");
        List<String> listed = client.getJson("/jobs?limit=500").path("items").valueStream()
                .map(item -> item.path("name").asString()).toList();
        assertThat(listed).containsOnlyOnce("remembered");

        assertThat(client.delete("/jobs/remembered").statusCode()).isEqualTo(204);
        HttpResponse<String> gone = client.get("/jobs/remembered/status");
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(history.find(key)).isEmpty();
    }

    /** 600 lines, more than the last lines the history once kept: the whole log comes back, and the metrics. */
    @Test
    void theWholeLogAndTheMetricsOfAJobTheBackendForgotAreServedFromTheHistory() {
        client.submit(LocalJobsApiTest.body("measured-history", "for s in $(seq 1 300); do echo pass $s;"
                + " echo PADDLEJOBS_METRICS '{\\\"step\\\": '$s', \\\"loss\\\": 0.'$s'}'; done"));
        client.awaitPhase("measured-history", "Succeeded", WITHIN);
        JobKey key = new JobKey("default", "measured-history");
        await().atMost(WITHIN).until(() -> history.keptLog(key, Role.TRAINER, 0).isPresent()
                && client.getJson("/jobs/measured-history/metrics").path("cursor").asLong() == 300);
        // Kept once every trainer's output was read to its end; the history gets it on its own thread.
        await().atMost(WITHIN).until(() -> archive.keptMetrics(key).isPresent());
        JsonNode live = client.getJson("/jobs/measured-history/metrics");

        assertThat(backend.delete(key)).isTrue();

        String log = client.logs("measured-history", "role=trainer&index=0");
        assertThat(log.lines()).hasSize(600).startsWith("pass 1").endsWith("PADDLEJOBS_METRICS {\"step\": 300, \"loss\": 0.300}");
        JsonNode archived = client.getJson("/jobs/measured-history/metrics");
        assertThat(archived.path("metrics")).isEqualTo(live.path("metrics"));
        assertThat(archived.path("metrics").path("loss").path("trainer-0").size()).isEqualTo(300);
        assertThat(archived.path("progress").path("step").asLong()).isEqualTo(300);
        assertThat(client.getJson("/jobs/measured-history/metrics?since=" + archived.path("cursor").asLong())
                .path("metrics").size()).isZero();
    }

    /**
     * A trainer that crashes on attempt 0 after much output and succeeds on attempt 1: once the backend forgot the
     * job, the history serves the end of attempt 0's log, traceback included, within its bound, and attempt 1's whole.
     */
    @Test
    void everyAttemptsLogIsServedFromTheHistoryTheEarlierOnesEnd() {
        client.submit(json("{'name': 'crashed-history', 'pservers': 1, 'trainers': 1, 'max_restarts': 1,"
                + " 'entry_point': 'if [ $PADDLE_TRAINING_ROLE = TRAINER ] && [ $PADDLE_JOB_RESTART_COUNT = 0 ]; then"
                + " seq 1 20000; echo \\\"Traceback (most recent call last):\\\"; echo RuntimeError: NCCL error >&2; exit 1; fi;"
                + " echo attempt $PADDLE_JOB_RESTART_COUNT ran'}"));
        client.awaitPhase("crashed-history", "Succeeded", WITHIN);
        JobKey key = new JobKey("default", "crashed-history");
        await().atMost(WITHIN).until(() -> history.keptLog(key, Role.TRAINER, 0).isPresent()
                && history.keptEarlierLog(key, Role.TRAINER, 0, 0).isPresent());
        assertThat(client.logs("crashed-history", "role=trainer&index=0&attempt=0")).startsWith("1\n2\n");

        assertThat(backend.delete(key)).isTrue();

        assertThat(client.status("crashed-history").path("archived").asBoolean()).isTrue();
        String earlier = client.logs("crashed-history", "role=trainer&index=0&attempt=0");
        assertThat(earlier).startsWith("[paddle-jobs: the first ").contains("(paddlejobs.history.max-earlier-log-size)]")
                .endsWith("20000\nTraceback (most recent call last):\nRuntimeError: NCCL error\n");
        assertThat(earlier.length()).isLessThanOrEqualTo(64 * 1024 + 200);
        assertThat(client.logs("crashed-history", "role=trainer&index=0&attempt=0&tail=1")).isEqualTo("RuntimeError: NCCL error\n");
        assertThat(client.logs("crashed-history", "role=trainer&index=0&attempt=1")).isEqualTo("attempt 1 ran\n");
        assertThat(client.logs("crashed-history", "role=trainer&index=0")).isEqualTo("attempt 1 ran\n");
        HttpResponse<String> past = client.get("/jobs/crashed-history/logs?role=trainer&index=0&attempt=2");
        assertThat(past.statusCode()).isEqualTo(400);
        assertThat(past.body()).contains("attempt", "must be at most 1, the job's last attempt");
    }

    /**
     * A delete leaves a tombstone in the history, whose name column holds a DNS label: a name no job can bear (found by
     * Schemathesis: 109 characters, control characters among them) was a 500 as the tombstone was written.
     */
    @Test
    void aDeleteOfANameNoJobCanBearIsA404AndWritesNothing() {
        String tooLong = "a".repeat(64);
        String notALabel = URLEncoder.encode("\u06ff\u0012Ü-job", StandardCharsets.UTF_8);

        for (String name : List.of(tooLong, notALabel)) {
            HttpResponse<String> deleted = client.send("DELETE", "/jobs/" + name, null);
            assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(404);
            assertThat(deleted.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("application/problem+json"));
        }
    }

    @Test
    void anotherNamespaceDoesNotSeeTheHistoryOfThisOne() {
        client.submit(LocalJobsApiTest.body("private-history", "true"), "team-a");
        client.awaitPhase("private-history", "team-a", "Succeeded", WITHIN);
        JobKey key = new JobKey("team-a", "private-history");
        await().atMost(WITHIN).until(() -> history.find(key).isPresent());
        backend.delete(key);

        assertThat(client.get("/jobs/private-history/status?namespace=team-b").statusCode()).isEqualTo(404);
        assertThat(client.getJson("/jobs?namespace=team-b&limit=500").path("items").valueStream()
                .map(item -> item.path("name").asString())).doesNotContain("private-history");
        assertThat(client.status("private-history", "team-a").path("archived").asBoolean()).isTrue();
    }
}
