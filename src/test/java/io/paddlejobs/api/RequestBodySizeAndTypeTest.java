package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;

/** docs/request.md: a body over 64 KiB is a 413 however it is sent; a body not sent as JSON is a 415. */
class RequestBodySizeAndTypeTest extends ApiTest {

    @Test
    void submitOverTheSizeLimitWithContentLengthReturnsContentTooLargeProblem() throws Exception {
        String body = oversizedBody();
        MvcResult result = dryRun(body);

        assertThat(body.length()).isGreaterThan(64 * 1024);
        assertProblem(result, 413);
    }

    @Test
    void submitOverTheSizeLimitInChunksReturnsContentTooLargeProblem() throws Exception {
        HttpResponse<String> response = sendChunked(oversizedBody());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(MediaType.parseMediaType(type).isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)).isTrue());
        assertThat(json.readTree(response.body()).path("title").asString()).isEqualTo("Request body too large");
    }

    @Test
    void submitUnderTheSizeLimitInChunksIsRead() throws Exception {
        HttpResponse<String> response = sendChunked(json("{'entry_point':'true'}"));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void submitAsPlainTextReturnsUnsupportedMediaTypeProblem() throws Exception {
        MvcResult result = mvc.perform(post("/jobs").queryParam("dry_run", "true")
                .contentType(MediaType.TEXT_PLAIN).content("python train.py")).andReturn();

        assertProblem(result, 415);
    }

    @Test
    void aFormBodyAsCurlDashDSendsItIsToldWhichContentTypeToSend() throws Exception {
        MvcResult result = mvc.perform(post("/jobs").queryParam("dry_run", "true")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).content("{\"entry_point\":\"true\"}")).andReturn();

        assertThat(assertProblem(result, 415).path("detail").asString())
                .contains("application/x-www-form-urlencoded").contains("-H 'Content-Type: application/json'");
    }

    /** Over a real connection: with no length known up front, the client sends the body chunked. */
    private HttpResponse<String> sendChunked(String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jobs?dry_run=true"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A well-formed request that only its size makes wrong. */
    private static String oversizedBody() {
        StringBuilder env = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            env.append(i == 0 ? "" : ",").append("'V").append(i).append("':'").append("x".repeat(4000)).append("'");
        }
        return json("{'entry_point':'true','env':{" + env + "}}");
    }
}
