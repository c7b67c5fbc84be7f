package io.paddlejobs.security.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Mode {@code kubernetes} over real HTTP, with the local backend running the jobs and the mock API
 * server answering the reviews as {@link ReviewingCluster}'s RBAC says: alice may use team-a and
 * not team-b, tokens the cluster rejects are 401, reviews that fail deny without a 500.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.security.mode=kubernetes",
        "paddlejobs.allow-shared-files=true",
        "paddlejobs.security.kubernetes.cache-ttl=10m",
        "paddlejobs.security.kubernetes.default-namespaces.alice=team-a",
        "paddlejobs.kubernetes.request-timeout=15s"})
@DirtiesContext // stop the jobs' processes before the temporary directory goes
class KubernetesModeApiTest {

    private static final ReviewingCluster CLUSTER = new ReviewingCluster();

    @TempDir
    static Path tmp;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.kubernetes.master-url", CLUSTER::url);
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.close();
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void forgetEarlierRequests() throws InterruptedException {
        CLUSTER.takeRequests();
    }

    private HttpResponse<String> send(String token, String method, String path, String body) {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", "*/*")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every endpoint, aimed at a job in a namespace: {method, path, body}. */
    static Stream<Arguments> endpoints() {
        String job = "{\"name\": \"%1$s\", \"entry_point\": \"true\"}";
        return Stream.of(
                Arguments.of("GET", "/jobs?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/status?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/logs?role=trainer&index=0&namespace=%2$s", null),
                Arguments.of("POST", "/jobs/%1$s/cancel?namespace=%2$s", null),
                Arguments.of("POST", "/jobs/%1$s/rerun?dry_run=true&namespace=%2$s", "{}"),
                Arguments.of("DELETE", "/jobs/%1$s?namespace=%2$s", null),
                Arguments.of("POST", "/jobs?namespace=%2$s", job),
                Arguments.of("POST", "/jobs?dry_run=true&namespace=%2$s", job));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("endpoints")
    void aliceMayUseTeamAButNotTeamB(String method, String path, String body) {
        HttpResponse<String> own = send("alice-token", method, path.formatted("matrix", "team-a"),
                body == null ? null : body.formatted("matrix"));
        HttpResponse<String> other = send("alice-token", method, path.formatted("matrix", "team-b"),
                body == null ? null : body.formatted("matrix"));

        assertThat(own.statusCode()).as(own.body()).isNotIn(401, 403).isLessThan(500);
        assertThat(other.statusCode()).as(other.body()).isEqualTo(403);
        assertThat(other.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json.readTree(other.body()).get("detail").asString())
                .contains("alice", "may not", "team-b", "jobs.batch");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("endpoints")
    void aTokenTheClusterRejectsIs401WithABearerChallenge(String method, String path, String body) {
        HttpResponse<String> response = send("forged-token", method, path.formatted("matrix", "team-a"),
                body == null ? null : body.formatted("matrix"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer").contains("invalid_token"));
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void noTokenIs401WithABearerChallengeAndNoReview() throws InterruptedException {
        HttpResponse<String> response = send(null, "GET", "/jobs?namespace=team-a", null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer"));
        assertThat(CLUSTER.takeRequests()).isEmpty();
    }

    @Test
    void theReviewsSentForARequestCarryTheCallerNamespaceAndVerb() throws InterruptedException {
        HttpResponse<String> response = send("alice-token", "GET", "/jobs", null);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        var sent = CLUSTER.takeRequests();
        var accessReviews = ReviewingCluster.accessReviews(sent);
        assertThat(accessReviews).singleElement().satisfies(review -> {
            var attributes = review.getSpec().getResourceAttributes();
            assertThat(attributes.getNamespace()).as("alice's mapped default").isEqualTo("team-a");
            assertThat(attributes.getVerb()).isEqualTo("list");
            assertThat(attributes.getGroup()).isEqualTo("batch");
            assertThat(attributes.getResource()).isEqualTo("jobs");
            assertThat(review.getSpec().getUser()).isEqualTo("alice");
            assertThat(review.getSpec().getGroups()).containsExactly("team-a-devs", "system:authenticated");
        });
    }

    @Test
    void aSecondIdenticalRequestAsksTheClusterNothing() {
        HttpResponse<String> first = send("viewer-token", "GET", "/jobs/some-job?namespace=team-a", null);
        int afterFirst = CLUSTER.server.getRequestCount();
        HttpResponse<String> second = send("viewer-token", "GET", "/jobs/some-job?namespace=team-a", null);

        assertThat(first.statusCode()).isEqualTo(404);
        assertThat(second.statusCode()).isEqualTo(404);
        assertThat(CLUSTER.server.getRequestCount()).isEqualTo(afterFirst);
    }

    @Test
    void whatRbacGrantsIsWhatTheUserGets() {
        assertThat(send("viewer-token", "GET", "/jobs?namespace=team-a", null).statusCode()).isEqualTo(200);

        HttpResponse<String> submit = send("viewer-token", "POST", "/jobs?namespace=team-a",
                "{\"name\": \"viewers-job\", \"entry_point\": \"true\"}");

        assertThat(submit.statusCode()).isEqualTo(403);
        assertThat(json.readTree(submit.body()).get("detail").asString()).contains("create jobs.batch");
    }

    @Test
    void aFailingTokenReviewIs401NotAServerError() {
        HttpResponse<String> response = send("broken-token", "GET", "/jobs?namespace=team-a", null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer"));
    }

    @Test
    void aFailingAccessReviewIs403NotAServerError() {
        HttpResponse<String> response = send("carol-token", "GET", "/jobs?namespace=team-a", null);

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void withoutADefaultNamespaceTheNamespaceParameterIsRequired() throws InterruptedException {
        HttpResponse<String> unnamed = send("bob-token", "GET", "/jobs", null);
        HttpResponse<String> named = send("bob-token", "GET", "/jobs?namespace=team-b", null);

        assertThat(unnamed.statusCode()).isEqualTo(400);
        assertThat(unnamed.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = json.readTree(unnamed.body());
        assertThat(problem.get("detail").asString()).contains("bob", "namespace");
        assertThat(problem.at("/errors/0/field").asString()).isEqualTo("namespace");
        assertThat(named.statusCode()).isEqualTo(200);
    }

    @Test
    void aMappedUserSubmitsIntoItsDefaultNamespace() {
        HttpResponse<String> response = send("alice-token", "POST", "/jobs",
                "{\"name\": \"alices-job\", \"entry_point\": \"true\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(json.readTree(response.body()).get("status_url").asString()).contains("namespace=team-a");
    }
}
