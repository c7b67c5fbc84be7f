package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The service's jobs API over real HTTP, as a user's script calls it. */
final class JobsApi {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    JobsApi(int port) {
        this.baseUrl = "http://127.0.0.1:" + port;
    }

    /** The API of a service started on its own (a free port). */
    static JobsApi of(ConfigurableApplicationContext service) {
        return new JobsApi(((WebServerApplicationContext) service).getWebServer().getPort());
    }

    String baseUrl() {
        return baseUrl;
    }

    HttpResponse<String> send(String method, String path, String json) {
        return send(method, path, json, null);
    }

    /** A stream of Server-Sent Events, read until the service ends it. */
    HttpResponse<String> events(String path) {
        return send("GET", path, null, "text/event-stream");
    }

    private HttpResponse<String> send(String method, String path, String json, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(path.startsWith("/") ? baseUrl + path : path))
                .timeout(Duration.ofSeconds(60));
        if (accept != null) {
            request.header("Accept", accept);
        }
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Submits and returns the answer's body; fails unless it is 201 (created) or 200 (the same job again). */
    JsonNode submit(String requestJson) {
        HttpResponse<String> response = send("POST", "/jobs", requestJson);
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        return JSON.readTree(response.body());
    }

    JsonNode json(String path) {
        HttpResponse<String> response = send("GET", path, null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    JsonNode status(String job) {
        return json("/jobs/" + job + "/status");
    }

    JsonNode status(String job, String namespace) {
        return json("/jobs/" + job + "/status?namespace=" + namespace);
    }

    String logs(String job, String query) {
        HttpResponse<String> response = send("GET", "/jobs/" + job + "/logs?" + query, null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** Waits until the job is in {@code phase}, failing at once if it ends in another one. */
    JsonNode awaitPhase(String job, String phase, Duration within) {
        return awaitPhase(job, "default", phase, within);
    }

    /** As {@link #awaitPhase(String, String, Duration)}, for a job of another namespace. */
    JsonNode awaitPhase(String job, String namespace, String phase, Duration within) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(within).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            last[0] = status(job, namespace);
            String now = last[0].path("phase").asString();
            if (!now.equals(phase) && (now.equals("Succeeded") || now.equals("Failed") || now.equals("Cancelled"))) {
                throw new IllegalStateException("job " + job + " ended " + now + " instead of " + phase + ": " + last[0]);
            }
            assertThat(now).as("phase of %s: %s", job, last[0]).isEqualTo(phase);
        });
        return last[0];
    }

    static JsonNode parse(String json) {
        return JSON.readTree(json);
    }
}
