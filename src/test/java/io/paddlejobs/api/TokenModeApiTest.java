package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.packages.Archives;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Tokens;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Mode {@code token} over real HTTP, with real processes: alice (team-a, shared) and bob (team-b)
 * must not reach each other's jobs through any endpoint; carol and dave have tight limits.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // stop the jobs' processes before the temporary directory goes
@ExtendWith(OutputCaptureExtension.class)
class TokenModeApiTest {

    static final String ALICE = "alice-s3cret";
    static final String BOB = "bob-s3cret";
    static final String CAROL = "carol-s3cret";
    static final String DAVE = "dave-s3cret";
    static final String ERIN = "erin-s3cret";
    static final String FRANK = "frank-s3cret";

    @TempDir
    static Path tmp;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.local.max-running-jobs", () -> 50);
        // Tests leave sleeping jobs behind, some with GPUs: a machine with room for them all.
        registry.add("paddlejobs.local.cpus", () -> 1000);
        registry.add("paddlejobs.local.memory", () -> "64TB");
        registry.add("paddlejobs.local.gpus", () -> "0,1,2,3,4,5,6,7");
        registry.add("paddlejobs.security.mode", () -> "token");
        // These tests are about the API; where no sandbox exists they still run (see ReplicaConfinementTest).
        registry.add("paddlejobs.allow-shared-files", () -> "true");
        registry.add("paddlejobs.security.token-file", TokenModeApiTest::tokenFile);
        registry.add("paddlejobs.security.cors-origins", () -> "https://dashboard.example");
    }

    static String tokenFile() {
        return Tokens.file(tmp, """
                    tokens:
                      - user: alice
                        sha256: %s
                        namespaces: [team-a, shared]
                      - user: bob
                        sha256: %s
                        namespaces: [team-b]
                      - user: carol
                        sha256: %s
                        namespaces: [team-c]
                        submissions-per-minute: 2
                      - user: dave
                        sha256: %s
                        namespaces: [team-d]
                        max-unfinished-jobs: 1
                      - user: erin
                        sha256: %s
                        namespaces: [team-e]
                        max-gpus-in-use: 4
                      - user: frank
                        sha256: %s
                        namespaces: [team-f]
                        submissions-per-minute: 1
                    """.formatted(Tokens.sha256(ALICE), Tokens.sha256(BOB), Tokens.sha256(CAROL), Tokens.sha256(DAVE),
                    Tokens.sha256(ERIN), Tokens.sha256(FRANK)));
    }

    @LocalServerPort
    int port;

    ServiceClient anonymous;
    ServiceClient alice;
    ServiceClient bob;
    final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void clients() {
        anonymous = new ServiceClient(port);
        alice = anonymous.withToken(ALICE);
        bob = anonymous.withToken(BOB);
        // Bob's job, which alice tries to reach; resubmitting the same spec finds it again.
        bob.submit("""
                {"name": "bobs-job", "entry_point": "sleep 30", "trainers": 1, "pservers": 1}""", "team-b");
    }

    /** Every endpoint, aimed at a job in a namespace: {method, path, body}. */
    static Stream<Arguments> endpoints() {
        return Stream.of(
                Arguments.of("GET", "/jobs?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/status?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/logs?role=trainer&index=0&namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/metrics?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/actions?namespace=%2$s", null),
                Arguments.of("GET", "/jobs/%1$s/deliveries?namespace=%2$s", null),
                Arguments.of("POST", "/jobs/%1$s/cancel?namespace=%2$s", null),
                Arguments.of("POST", "/jobs/%1$s/stacks?namespace=%2$s", null),
                Arguments.of("POST", "/jobs/%1$s/exec?role=trainer&index=0&namespace=%2$s", "{\"command\": [\"true\"]}"),
                Arguments.of("GET", "/jobs/%1$s/stacks?namespace=%2$s", null),
                Arguments.of("POST", "/jobs/%1$s/rerun?namespace=%2$s", "{}"),
                Arguments.of("POST", "/jobs/%1$s/rerun?dry_run=true&namespace=%2$s", "{}"),
                Arguments.of("DELETE", "/jobs/%1$s?namespace=%2$s", null),
                Arguments.of("POST", "/jobs?namespace=%2$s", "{\"name\": \"%1$s\", \"entry_point\": \"true\"}"),
                Arguments.of("POST", "/jobs?dry_run=true&namespace=%2$s", "{\"name\": \"%1$s\", \"entry_point\": \"true\"}"),
                Arguments.of("GET", "/packages?namespace=%2$s", null),
                Arguments.of("GET", "/packages/sha256:" + "0".repeat(64) + "?namespace=%2$s", null),
                Arguments.of("DELETE", "/packages/sha256:" + "0".repeat(64) + "?namespace=%2$s", null),
                Arguments.of("GET", "/capacity?namespace=%2$s", null),
                Arguments.of("POST", "/jobs/import?namespace=%2$s", "{\"apiVersion\": \"kubeflow.org/v1\", \"kind\": \"PaddleJob\"}"),
                Arguments.of("POST", "/jobs/import?dry_run=true&namespace=%2$s", "{\"apiVersion\": \"kubeflow.org/v1\"}"),
                Arguments.of("GET", "/sweeps?namespace=%2$s", null),
                Arguments.of("GET", "/sweeps/%1$s?namespace=%2$s", null),
                Arguments.of("POST", "/sweeps?namespace=%2$s", "{\"name\": \"%1$s\", \"template\": {\"entry_point\": \"true\"}, "
                        + "\"parameters\": [{\"name\": \"n\", \"env\": \"N\", \"values\": [1]}]}"),
                Arguments.of("POST", "/sweeps/%1$s/cancel?namespace=%2$s", null),
                Arguments.of("DELETE", "/sweeps/%1$s?namespace=%2$s", null),
                Arguments.of("GET", "/compare?jobs=%1$s&namespace=%2$s", null));
    }

    /** Handlers that act in a namespace but whose refusal another test of this class checks, and which. */
    private static final Map<String, String> REFUSED_ELSEWHERE = Map.of(
            "POST /packages", "anUploadToAnotherTenantsNamespaceIs403 (its body must be an archive)");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mapping;

    /** The table above is written by hand; the handler mapping says which endpoints it must hold. */
    @Test
    void theTableHoldsEveryEndpointThatActsInANamespace() {
        Set<String> inTable = endpoints().map(row -> row.get()[0] + " "
                + ((String) row.get()[1]).formatted("x", "ns").replaceAll("\\?.*", "").replaceAll("sha256:0+", "x"))
                .collect(Collectors.toSet());
        Set<String> acting = new TreeSet<>();
        mapping.getHandlerMethods().forEach((info, handler) -> {
            boolean inNamespace = Stream.of(handler.getMethodParameters()).anyMatch(parameter ->
                    parameter.hasParameterAnnotation(InNamespace.class)
                            && !parameter.getParameterAnnotation(InNamespace.class).quietly());
            if (inNamespace) {
                info.getPatternValues().forEach(pattern -> info.getMethodsCondition().getMethods().forEach(method ->
                        acting.add(method.name() + " " + pattern.replaceAll("\\{[^}]+}", "x"))));
            }
        });

        assertThat(acting).isNotEmpty().allSatisfy(endpoint -> assertThat(inTable.contains(endpoint)
                || REFUSED_ELSEWHERE.containsKey(endpoint)).as(endpoint).isTrue());
    }

    @Test
    void anUploadToAnotherTenantsNamespaceIs403() {
        HttpResponse<String> response = alice.send(HttpRequest
                .newBuilder(URI.create(alice.baseUrl() + "/packages?namespace=team-b"))
                .header("Content-Type", "application/gzip").POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {1, 2})));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
        assertThat(json.readTree(response.body()).get("detail").asString()).contains("may not", "team-b");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("endpoints")
    void anotherTenantsNamespaceIs403WhetherOrNotTheJobExists(String method, String path, String body) {
        HttpResponse<String> existing = alice.send(method, path.formatted("bobs-job", "team-b"), body(body, "bobs-job"));
        HttpResponse<String> missing = alice.send(method, path.formatted("no-such-job", "team-b"), body(body, "no-such-job"));

        assertThat(existing.statusCode()).as(existing.body()).isEqualTo(403);
        assertThat(existing.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json.readTree(existing.body()).get("detail").asString()).contains("may not", "team-b")
                .doesNotContain("bobs-job");
        assertThat(missing.statusCode()).isEqualTo(403);
        assertThat(json.readTree(missing.body()).get("detail")).isEqualTo(json.readTree(existing.body()).get("detail"));
        JsonNode bobsJob = json.readTree(bob.get("/jobs/bobs-job?namespace=team-b", "application/json").body());
        assertThat(bobsJob.at("/status/phase").asString()).isIn("Pending", "Running");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("endpoints")
    void everyEndpointWithoutATokenIs401WithABearerChallenge(String method, String path, String body) {
        HttpResponse<String> response = anonymous.send(method, path.formatted("bobs-job", "team-b"), body(body, "x"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer"));
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json.readTree(response.body()).get("title").asString()).isEqualTo("Authentication required");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("endpoints")
    void everyEndpointWithAWrongTokenIs401InvalidToken(String method, String path, String body) {
        HttpResponse<String> response = anonymous.withToken("not-a-token")
                .send(method, path.formatted("bobs-job", "team-b"), body(body, "x"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue(
                "Bearer realm=\"paddle-jobs\", error=\"invalid_token\"");
        assertThat(response.body()).contains("not valid");
    }

    @Test
    void aTenantWorksInItsNamespacesAndDefaultsToItsFirst() {
        HttpResponse<String> submitted = alice.post("/jobs", """
                {"name": "mine", "entry_point": "echo hello", "trainers": 1, "pservers": 1}""");

        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        assertThat(json.readTree(submitted.body()).get("status_url").asString()).endsWith("/jobs/mine/status?namespace=team-a");
        await().atMost(Duration.ofSeconds(30)).until(() -> "Succeeded".equals(
                json.readTree(alice.get("/jobs/mine/status", "application/json").body()).get("phase").asString()));
        assertThat(alice.get("/jobs/mine/logs?role=trainer&index=0").body()).isEqualTo("hello\n");
        assertThat(alice.get("/jobs?namespace=team-a", "application/json").body()).contains("\"mine\"");
        assertThat(alice.post("/jobs?namespace=shared", """
                {"name": "in-shared", "entry_point": "true"}""").statusCode()).isEqualTo(201);
        assertThat(alice.post("/jobs/in-shared/cancel?namespace=shared", "").statusCode()).isEqualTo(200);
        assertThat(alice.delete("/jobs/mine").statusCode()).isEqualTo(204);
    }

    @Test
    void aJobThatIsNotThereInAnAllowedNamespaceIs404() {
        HttpResponse<String> response = alice.get("/jobs/bobs-job?namespace=team-a", "application/json");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("Job not found");
    }

    @Test
    void healthMetricsApiDocsSwaggerUiAndPageAssetsNeedNoToken() {
        for (String path : new String[] {"/actuator/health", "/actuator/health/liveness", "/actuator/prometheus",
                "/v3/api-docs", "/swagger-ui/index.html", "/page/common.js", "/page/page.css"}) {
            assertThat(anonymous.get(path).statusCode()).as(path).isEqualTo(200);
        }
    }

    @Test
    void pagesAreServedWithoutATokenAndSayNothingAboutTheJob() {
        HttpResponse<String> existing = anonymous.get("/jobs/bobs-job/status?namespace=team-b", "text/html");
        HttpResponse<String> missing = anonymous.get("/jobs/no-such-job/status?namespace=team-b", "text/html");
        HttpResponse<String> list = anonymous.get("/jobs", "text/html");

        assertThat(existing.statusCode()).isEqualTo(200);
        assertThat(missing.statusCode()).isEqualTo(200);
        assertThat(existing.body()).isEqualTo(missing.body()).contains("<title>");
        assertThat(list.statusCode()).isEqualTo(200);
    }

    @Test
    void aRequestServedJsonBecauseItAcceptsHtmlAndJsonAlikeStillNeedsAToken() {
        // A browser's navigation lists text/html first and gets the page; this one prefers JSON.
        HttpResponse<String> response = anonymous.get("/jobs/bobs-job/status?namespace=team-b",
                "application/json, text/html");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"paddle-jobs\"");
        assertThat(response.body()).doesNotContain("Running", "Pending");
    }

    @Test
    void swaggerUiCanAuthorizeWithABearerToken() {
        JsonNode docs = json.readTree(anonymous.get("/v3/api-docs").body());

        assertThat(docs.at("/components/securitySchemes/bearer/type").asString()).isEqualTo("http");
        assertThat(docs.at("/components/securitySchemes/bearer/scheme").asString()).isEqualTo("bearer");
        assertThat(docs.at("/paths/~1jobs/post/security/0").has("bearer")).isTrue();
    }

    @Test
    void contractAsksForATokenOnEveryOperationButThePackageContentUrl() {
        JsonNode paths = json.readTree(anonymous.get("/v3/api-docs").body()).path("paths");

        paths.properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            JsonNode op = operation.getValue();
            boolean signedUrl = path.getKey().equals("/packages/{id}/content");
            assertThat(op.path("security").path(0).has("bearer")).as("%s %s", operation.getKey(), path.getKey())
                    .isEqualTo(!signedUrl);
            assertThat(op.path("responses").has("401")).as("%s %s", operation.getKey(), path.getKey())
                    .isEqualTo(!signedUrl);
        }));
    }

    @Test
    void submissionsOverTheRateAre429WithRetryAfter() {
        ServiceClient carol = anonymous.withToken(CAROL);
        String job = "{\"entry_point\": \"true\", \"trainers\": 1, \"pservers\": 1}";
        assertThat(carol.post("/jobs", job).statusCode()).isEqualTo(201);
        assertThat(carol.post("/jobs", job).statusCode()).isEqualTo(201);

        HttpResponse<String> third = carol.post("/jobs", job);

        assertThat(third.statusCode()).isEqualTo(429);
        assertThat(third.headers().firstValue("Retry-After")).hasValueSatisfying(
                seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
        assertThat(third.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(third.body()).contains("2 jobs per minute");
        assertThat(carol.post("/jobs?dry_run=true", job).statusCode()).as("dry runs are counted too").isEqualTo(429);
    }

    @Test
    void aJobThatWouldTakeTheNamespacePastItsGpusInUseIsRefused() {
        ServiceClient erin = anonymous.withToken(ERIN);
        assertThat(erin.post("/jobs", "{\"name\": \"big\", \"entry_point\": \"sleep 30\", \"num_gpus\": 3}")
                .statusCode()).isEqualTo(201);

        HttpResponse<String> tooMany = erin.post("/jobs", "{\"name\": \"more\", \"entry_point\": \"true\", \"num_gpus\": 2}");
        HttpResponse<String> fits = erin.post("/jobs", "{\"name\": \"fits\", \"entry_point\": \"sleep 30\", \"num_gpus\": 1}");

        assertThat(tooMany.statusCode()).isEqualTo(429);
        assertThat(tooMany.body()).contains("Too many GPUs in use", "3 GPUs held", "2 more", "at most 4");
        assertThat(fits.statusCode()).isEqualTo(201);
        erin.post("/jobs/big/cancel", "");
        erin.post("/jobs/fits/cancel", "");
    }

    @Test
    void aNamespaceAtItsUnfinishedJobsLimitTakesNoMoreUntilOneFinishes() {
        ServiceClient dave = anonymous.withToken(DAVE);
        assertThat(dave.post("/jobs", "{\"name\": \"first\", \"entry_point\": \"sleep 30\"}").statusCode()).isEqualTo(201);

        HttpResponse<String> second = dave.post("/jobs", "{\"name\": \"second\", \"entry_point\": \"true\"}");

        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(second.body()).contains("Too many unfinished jobs", "'team-d' already has 1");
        assertThat(dave.post("/jobs/first/cancel", "").statusCode()).isEqualTo(200);
        assertThat(dave.post("/jobs", "{\"name\": \"second\", \"entry_point\": \"true\"}").statusCode()).isEqualTo(201);
    }

    @Test
    void submitsCancelsDeletesAndExecsAreAuditedWithWhoWhereWhatAndOutcome(CapturedOutput output) {
        alice.post("/jobs", "{\"name\": \"audited\", \"entry_point\": \"sleep 30\"}");
        alice.post("/jobs/audited/exec", "{\"command\": [\"true\"]}"); // not held: refused, and audited
        alice.post("/jobs/bobs-job/exec?namespace=team-b", "{\"command\": [\"true\"]}");
        alice.post("/jobs/audited/cancel", "");
        alice.delete("/jobs/audited");
        alice.post("/jobs/bobs-job/cancel?namespace=team-b", "");
        alice.delete("/jobs/gone");
        alice.post("/jobs?namespace=team-b", "{\"name\": \"intruder\", \"entry_point\": \"true\"}");

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(output.getOut().lines()
                .filter(line -> line.contains("paddlejobs.audit") && line.contains("user=alice")))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=submit user=alice namespace=team-a job=audited outcome=created status=201"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=exec user=alice namespace=team-a job=audited outcome=conflict status=409"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=exec user=alice namespace=team-b job=bobs-job outcome=denied status=403"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=cancel user=alice namespace=team-a job=audited outcome=cancelled status=200"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=delete user=alice namespace=team-a job=audited outcome=deleted status=204"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=cancel user=alice namespace=team-b job=bobs-job outcome=denied status=403"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=delete user=alice namespace=team-a job=gone outcome=not-found status=404"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=submit user=alice namespace=team-b job=intruder outcome=denied status=403")));
    }

    @Test
    void uploadsAndPackageDeletesAreAuditedAndANewPackageSpendsTheSubmissionRate(CapturedOutput output) {
        ServiceClient frank = anonymous.withToken(FRANK); // one submission a minute
        HttpResponse<String> first = frank.upload(new Archives().file("a.py", "1").bytes(), "team-f");
        HttpResponse<String> second = frank.upload(new Archives().file("b.py", "2").bytes(), "team-f");
        String id = json.readTree(first.body()).get("package").asString();
        HttpResponse<String> deleted = frank.delete("/packages/" + id + "?namespace=team-f");

        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(429);
        assertThat(second.headers().firstValue("Retry-After")).isPresent();
        assertThat(deleted.statusCode()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(output.getOut().lines()
                .filter(line -> line.contains("paddlejobs.audit") && line.contains("user=frank")))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=upload user=frank namespace=team-f package=" + id + " outcome=created status=201"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=upload user=frank namespace=team-f package=- outcome=limited status=429"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=delete-package user=frank namespace=team-f package=" + id + " outcome=deleted status=204")));
    }

    @Test
    void attemptsWithoutAValidTokenAreAuditedToo(CapturedOutput output) {
        anonymous.post("/jobs", "{\"name\": \"sneaky\", \"entry_point\": \"true\"}");
        anonymous.withToken("wrong").delete("/jobs/victim?namespace=team-a");
        anonymous.upload(new Archives().file("a.py", "1").bytes(), "team-a");
        anonymous.delete("/packages/sha256:" + "0".repeat(64) + "?namespace=team-a");

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(output.getOut().lines()
                .filter(line -> line.contains("paddlejobs.audit") && line.contains("user=-")))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=submit user=- namespace=- job=- outcome=unauthenticated status=401"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=delete user=- namespace=team-a job=victim outcome=unauthenticated status=401"))
                .anySatisfy(line -> assertThat(line).endsWith(
                        "action=upload user=- namespace=team-a package=- outcome=unauthenticated status=401"))
                .anySatisfy(line -> assertThat(line).endsWith("action=delete-package user=- namespace=team-a package=sha256:"
                        + "0".repeat(64) + " outcome=unauthenticated status=401")));
    }

    /**
     * The 401 comes before the body is read; the service reads the rest after the answer (or would close the
     * connection), so the client is not reset mid-upload and its next request, on a connection of its pool, is answered.
     */
    @Test
    void aWrongTokenUploadingAPackageReadsThe401AndItsNextRequestIsAnswered() {
        ServiceClient wrongToken = anonymous.withToken("wrong");
        byte[] larger = new byte[1536 * 1024]; // more than the sockets buffer: the client is still sending when refused
        Arrays.fill(larger, (byte) 'x');

        HttpResponse<String> refused = wrongToken.upload(larger, "team-a");
        HttpResponse<String> next = wrongToken.delete("/packages/sha256:" + "0".repeat(64) + "?namespace=team-a");

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
        assertThat(refused.body()).contains("The bearer token is not valid");
        assertThat(next.statusCode()).as(next.body()).isEqualTo(401);
    }

    @Test
    void onlyTheConfiguredOriginMayCallFromABrowser() {
        HttpResponse<String> allowed = preflight("https://dashboard.example");
        HttpResponse<String> other = preflight("https://evil.example");

        assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://dashboard.example");
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    private HttpResponse<String> preflight(String origin) {
        return anonymous.send(HttpRequest.newBuilder(URI.create(anonymous.baseUrl() + "/jobs"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type"));
    }

    private static String body(String template, String name) {
        return template == null ? null : template.formatted(name);
    }
}
