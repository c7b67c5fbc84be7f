package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Role;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A job its backend forgot stays readable from the embedded history (the H2 file under the data
 * root): status, log tail, listing, and a delete that removes it from the history too.
 */
class JobHistoryApiTest extends ApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(120);

    @Autowired
    JobBackend backend;

    @Autowired
    JobHistory history;

    @Test
    void aFinishedJobTheBackendForgotIsServedFromTheHistoryMarkedArchived() {
        client.submit(LocalJobsApiTest.body("remembered", "echo first; echo second"));
        client.awaitPhase("remembered", "Succeeded", WITHIN);
        JobKey key = new JobKey("default", "remembered");
        // The recorder writes on its own thread: the tail is kept once it wrote the finished job.
        await().atMost(WITHIN).until(() -> history.logTail(key, Role.TRAINER, 0).isPresent());
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
