package io.paddlejobs.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real HTTP against a running service: what a user's curl or script does, from a test. Paths start
 * with {@code /}; anything else is taken as a whole URL (a {@code status_url} the service handed out).
 */
public final class ServiceClient {

    /**
     * How long the shipped Python client waits for an answer (its default {@code timeout},
     * clients/python/paddle_jobs/client.py): to a user, a later answer is none. A test that an answer
     * comes at all, rather than a hang, sends {@link #within} it instead of timing the answer.
     */
    public static final Duration USER_TIMEOUT = Duration.ofSeconds(30);

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> FINISHED = Set.of("Succeeded", "Failed", "Cancelled");
    /** A request's own limit otherwise: a failure guard, generous for a busy machine. */
    private static final Duration PATIENT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final String token;
    private final Duration timeout;

    public ServiceClient(int port) {
        // The service listens on 127.0.0.1 only; "localhost" may resolve to ::1 first.
        this("http://127.0.0.1:" + port, null, PATIENT);
    }

    private ServiceClient(String baseUrl, String token, Duration timeout) {
        this.baseUrl = baseUrl;
        this.token = token;
        this.timeout = timeout;
    }

    /** The client of a service a test started itself (on a free port). */
    public static ServiceClient of(ConfigurableApplicationContext service) {
        return new ServiceClient(((WebServerApplicationContext) service).getWebServer().getPort());
    }

    /** The same client, sending {@code Authorization: Bearer <token>} with every request. */
    public ServiceClient withToken(String bearerToken) {
        return new ServiceClient(baseUrl, bearerToken, timeout);
    }

    /** The same client, giving up on an answer (an {@link UncheckedIOException}) after {@code timeout}. */
    public ServiceClient within(Duration timeout) {
        return new ServiceClient(baseUrl, token, timeout);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Any request, for tests that go through every endpoint alike. */
    public HttpResponse<String> send(String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Submits a job (or finds the identical one already there) and returns its status URL. */
    public String submit(String requestJson) {
        return submit(requestJson, "default");
    }

    public String submit(String requestJson, String namespace) {
        HttpResponse<String> response = post("/jobs?namespace=" + namespace, requestJson);
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        return parse(response.body()).get("status_url").asString();
    }

    /** A GET as curl sends it: {@code Accept: *}{@code /*}. */
    public HttpResponse<String> get(String path) {
        return get(path, "*/*");
    }

    /** A GET with exactly the given Accept header, or none at all when {@code accept} is null. */
    public HttpResponse<String> get(String path, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        return send(request);
    }

    /** A stream of Server-Sent Events, read until the service ends it. */
    public HttpResponse<String> events(String path) {
        return get(path, "text/event-stream");
    }

    /** A JSON answer; fails unless it is a 200. */
    public JsonNode getJson(String path) {
        HttpResponse<String> response = get(path, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return parse(response.body());
    }

    public JsonNode status(String job) {
        return status(job, "default");
    }

    public JsonNode status(String job, String namespace) {
        return getJson("/jobs/" + job + "/status?namespace=" + namespace);
    }

    /** A job's log, with the query after {@code ?} ({@code role=trainer&index=0}); fails unless it is a 200. */
    public String logs(String job, String query) {
        HttpResponse<String> response = get("/jobs/" + job + "/logs?" + query);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** Waits until the job is in {@code phase}, failing at once if it ends in another one. */
    public JsonNode awaitPhase(String job, String phase, Duration within) {
        return awaitPhase(job, "default", phase, within);
    }

    /** As {@link #awaitPhase(String, String, Duration)}, for a job of another namespace. */
    public JsonNode awaitPhase(String job, String namespace, String phase, Duration within) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(within).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            last[0] = status(job, namespace);
            String now = last[0].path("phase").asString();
            if (!now.equals(phase) && FINISHED.contains(now)) {
                throw new IllegalStateException("job " + job + " ended " + now + " instead of " + phase + ": " + last[0]);
            }
            assertThat(now).as("phase of %s: %s", job, last[0]).isEqualTo(phase);
        });
        return last[0];
    }

    /** Uploads a gzipped tar as a code package. */
    public HttpResponse<String> upload(byte[] gzippedTar, String namespace) {
        return send(HttpRequest.newBuilder(uri("/packages?namespace=" + namespace))
                .header("Content-Type", "application/gzip").POST(HttpRequest.BodyPublishers.ofByteArray(gzippedTar)));
    }

    public HttpResponse<String> delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    public HttpResponse<String> send(HttpRequest.Builder request) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return http.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode parse(String json) {
        return JSON.readTree(json);
    }

    private URI uri(String path) {
        return URI.create(path.startsWith("/") ? baseUrl + path : path);
    }
}
