package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.web.LeanConnections;
import io.paddlejobs.web.LeanHttp11Protocol;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The connection's buffers are cut for open event streams ({@link LeanConnections}); what callers may
 * send and get back is not: request headers up to 8 KiB, bodies up to the 64 KiB limit (chunked too,
 * with a trailer), responses of any size, each many times larger than a socket buffer.
 */
class ConnectionBuffersTest extends ApiTest {

    private static final int HEADER_LIMIT = 8 * 1024;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void requestHeadersJustUnderTheLimitAreRead() throws Exception {
        HttpResponse<String> response = getWithHeaderOf(HEADER_LIMIT - 1024);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void requestHeadersOverTheLimitAreRefused() throws Exception {
        HttpResponse<String> response = getWithHeaderOf(HEADER_LIMIT + 1024);

        assertThat(response.statusCode()).isEqualTo(400);
    }

    @Test
    void bodyJustUnderTheSizeLimitIsReadWhole() throws Exception {
        StringBuilder env = new StringBuilder();
        for (int i = 0; i < 15; i++) {
            env.append(i == 0 ? "" : ",").append("'V").append(i).append("':'").append("x".repeat(4000)).append("'");
        }
        String body = json("{'entry_point':'true','env':{" + env + "}}");

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/jobs?dry_run=true"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(body.length()).isBetween(56 * 1024, 64 * 1024);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).contains("x".repeat(4000));
    }

    @Test
    void chunkedBodyWithATrailerIsRead() throws Exception {
        String body = json("{'entry_point':'true'}");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            String request = "POST /jobs?dry_run=true HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\nX-Checksum: "
                    + "c".repeat(LeanConnections.TRAILER_BYTES / 2) + "\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(answer).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void responseLargerThanEveryBufferArrivesWhole() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/v3/api-docs")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body().length()).isGreaterThan(4 * LeanHttp11Protocol.RESPONSE_BUFFER_BYTES);
        JsonNode contract = json.readTree(response.body());
        assertThat(contract.path("paths").has("/jobs")).isTrue();
    }

    private HttpResponse<String> getWithHeaderOf(int bytes) throws Exception {
        return http.send(HttpRequest.newBuilder(uri("/jobs")).header("X-Filler", "a".repeat(bytes)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
