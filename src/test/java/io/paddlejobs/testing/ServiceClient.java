package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Real HTTP against a running service: what a user's curl or script does, from a test. */
final class ServiceClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final String token;

    ServiceClient(int port) {
        // The service listens on 127.0.0.1 only; "localhost" may resolve to ::1 first.
        this("http://127.0.0.1:" + port, null);
    }

    private ServiceClient(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    /** The same client, sending {@code Authorization: Bearer <token>} with every request. */
    ServiceClient withToken(String bearerToken) {
        return new ServiceClient(baseUrl, bearerToken);
    }

    String baseUrl() {
        return baseUrl;
    }

    HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Any request, for tests that go through every endpoint alike. */
    HttpResponse<String> send(String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Submits a job (or finds the identical one already there) and returns its status URL. */
    String submit(String requestJson) {
        return submit(requestJson, "default");
    }

    String submit(String requestJson, String namespace) {
        HttpResponse<String> response = post("/jobs?namespace=" + namespace, requestJson);
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        return JSON.readTree(response.body()).get("status_url").asString();
    }

    /** A GET as curl sends it: {@code Accept: *}{@code /*}. */
    HttpResponse<String> get(String path) {
        return get(path, "*/*");
    }

    /** A GET with exactly the given Accept header, or none at all when {@code accept} is null; a path or a whole URL. */
    HttpResponse<String> get(String url, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url.startsWith("/") ? baseUrl + url : url)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        return send(request);
    }

    JsonNode getJson(String url) {
        HttpResponse<String> response = get(url, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** Uploads a gzipped tar as a code package. */
    HttpResponse<String> upload(byte[] gzippedTar, String namespace) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/packages?namespace=" + namespace))
                .header("Content-Type", "application/gzip").POST(HttpRequest.BodyPublishers.ofByteArray(gzippedTar)));
    }

    HttpResponse<String> delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE());
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
