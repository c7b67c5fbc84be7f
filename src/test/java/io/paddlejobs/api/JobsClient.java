package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The jobs API as a user's script reaches it, for tests that need jobs to look at. */
final class JobsClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String baseUrl;

    JobsClient(int port) {
        // The service listens on 127.0.0.1 only; "localhost" may resolve to ::1 first.
        this.baseUrl = "http://127.0.0.1:" + port;
    }

    String baseUrl() {
        return baseUrl;
    }

    /** Submits a job (or finds the identical one already there) and returns its status URL. */
    String submit(String requestJson) {
        return submit(requestJson, "default");
    }

    String submit(String requestJson, String namespace) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/jobs?namespace=" + namespace))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(requestJson)));
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        return JSON.readTree(response.body()).get("status_url").asString();
    }

    JsonNode getJson(String url) {
        HttpResponse<String> response = get(url, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** A GET with exactly the given Accept header, or none at all when {@code accept} is null. */
    HttpResponse<String> get(String url, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url.startsWith("/") ? baseUrl + url : url)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        return send(request);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
