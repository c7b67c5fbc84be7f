package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Webhooks end to end: the service on the local backend, real jobs, and receivers that verify every
 * delivery with the Standard Webhooks library ({@link WebhookReceiver}).
 */
@Tag("webhooks")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // stop the jobs' processes before the temporary directory goes
class WebhooksTest {

    /** Under load a job takes seconds to start and end; generous, as CI's machine is shared. */
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    static final String NAMESPACE_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    static Path dir;
    static WebhookReceiver receiver;
    /** Another receiver (another host and port) for the one that never answers. */
    static WebhookReceiver silent;

    @LocalServerPort
    int port;
    ServiceClient service;

    @BeforeAll
    static void receivers() throws IOException {
        dir = Files.createTempDirectory("webhooks-test");
        receiver = WebhookReceiver.start(dir.resolve("receiver"));
        silent = WebhookReceiver.start(dir.resolve("silent"));
        receiver.trust(NAMESPACE_SECRET);
    }

    @AfterAll
    static void stopReceivers() throws InterruptedException {
        if (receiver != null) {
            receiver.close();
        }
        if (silent != null) {
            silent.close();
        }
    }

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dir.resolve("data").toString());
        registry.add("paddlejobs.local.cpus", () -> 1000);
        registry.add("paddlejobs.local.memory", () -> "64TB");
        registry.add("paddlejobs.restarts.backoff", () -> "100ms");
        registry.add("paddlejobs.webhooks.dir", () -> dir.resolve("outbox").toString());
        registry.add("paddlejobs.webhooks.retry-backoff", () -> "200ms");
        registry.add("paddlejobs.webhooks.max-retry-backoff", () -> "1s");
        registry.add("paddlejobs.webhooks.read-timeout", () -> "1s");
        registry.add("paddlejobs.webhooks.secrets.hooks", () -> NAMESPACE_SECRET);
        registry.add("paddlejobs.webhooks.subscriptions.hooks[0].url", () -> receiver.url("ok", "subscribed"));
        registry.add("paddlejobs.webhooks.subscriptions.hooks[0].events[0]", () -> "failed");
    }

    @BeforeEach
    void client() {
        service = new ServiceClient(port);
    }

    private JsonNode submit(String namespace, String body) {
        HttpResponse<String> response = service.post("/jobs?namespace=" + namespace, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return ServiceClient.parse(response.body());
    }

    private JsonNode deliveries(String job, String namespace) {
        return service.getJson("/jobs/" + job + "/deliveries?namespace=" + namespace).get("deliveries");
    }

    private static List<String> types(List<JsonNode> requests) {
        return requests.stream().map(r -> r.get("payload").get("type").asString()).toList();
    }

    @Test
    void everyEventOfAJobsLifeArrivesSignedWithTheJobsOwnSecret() throws IOException {
        JsonNode created = submit("default", """
                {"name": "hooked-life", "mode": "collective", "trainers": 1, "max_restarts": 1,
                 "entry_point": "test \\"$PADDLE_JOB_RESTART_COUNT\\" = 1 || exit 3",
                 "notify": [{"url": "%s", "events": ["started", "restarting", "succeeded", "failed", "cancelled",
                                                      "stalled"]}]}""".formatted(receiver.url("ok", "life")));
        String secret = created.get("webhook_secret").asString();
        assertThat(secret).startsWith("whsec_");
        receiver.trust(secret); // a delivery that came before this did not verify, was answered 400 and is sent again

        await().atMost(DEADLINE).until(() -> types(receiver.accepted("/ok/life")).contains("job.succeeded"));
        List<JsonNode> got = receiver.accepted("/ok/life");
        assertThat(types(got)).containsExactly("job.started", "job.restarting", "job.succeeded");
        assertThat(got).extracting(r -> r.get("id").asString()).doesNotHaveDuplicates();
        JsonNode succeeded = got.get(2).get("payload");
        assertThat(succeeded.get("timestamp").asString()).isNotBlank();
        JsonNode data = succeeded.get("data");
        assertThat(data.get("name").asString()).isEqualTo("hooked-life");
        assertThat(data.get("namespace").asString()).isEqualTo("default");
        assertThat(data.get("phase").asString()).isEqualTo("Succeeded");
        assertThat(data.get("status_url").asString()).isEqualTo(created.get("status_url").asString());
        assertThat(data.get("time").asString()).isNotBlank();
        assertThat(got.get(1).get("payload").get("data").get("reason").asString()).isEqualTo("Restarting");

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(deliveries("hooked-life", "default"))
                .extracting(d -> d.get("event").asString() + " " + d.get("state").asString())
                .containsExactly("started delivered", "restarting delivered", "succeeded delivered"));
        // Shown once: neither the job nor an identical resubmit shows the secret again.
        assertThat(service.get("/jobs/hooked-life?namespace=default").body()).doesNotContain(secret);
        HttpResponse<String> again = service.post("/jobs?namespace=default", ServiceClient.parse(
                service.get("/jobs/hooked-life?namespace=default").body()).get("plan").get("spec").toString());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).doesNotContain(secret).doesNotContain("webhook_secret");
    }

    @Test
    void aStallAndACancelArriveAsTheyHappen() throws IOException {
        JsonNode created = submit("default", """
                {"name": "hooked-stall", "mode": "collective", "trainers": 1, "entry_point": "sleep 300",
                 "stall_timeout": "1s", "notify": [{"url": "%s", "events": ["stalled", "cancelled"]}]}"""
                .formatted(receiver.url("ok", "stall")));
        receiver.trust(created.get("webhook_secret").asString());
        await().atMost(DEADLINE).until(() -> types(receiver.accepted("/ok/stall")).contains("job.stalled"));
        assertThat(service.post("/jobs/hooked-stall/cancel?namespace=default", "").statusCode()).isEqualTo(200);
        await().atMost(DEADLINE).until(() -> types(receiver.accepted("/ok/stall")).contains("job.cancelled"));
        assertThat(types(receiver.accepted("/ok/stall"))).containsExactly("job.stalled", "job.cancelled");
        assertThat(receiver.accepted("/ok/stall").get(0).get("payload").get("data").get("reason").asString())
                .isEqualTo("Stalled");
    }

    @Test
    void aNamespacesSubscriptionAndItsJobsWebhooksAreSignedWithTheNamespacesSecret() throws IOException {
        JsonNode created = submit("hooks", """
                {"name": "hooked-fail", "mode": "collective", "trainers": 1, "entry_point": "exit 3",
                 "notify": [{"url": "%s"}]}""".formatted(receiver.url("ok", "own")));
        assertThat(created.has("webhook_secret")).as("the namespace's secret signs: none of its own").isFalse();
        await().atMost(DEADLINE).until(() -> !receiver.accepted("/ok/subscribed").isEmpty()
                && !receiver.accepted("/ok/own").isEmpty());
        assertThat(types(receiver.accepted("/ok/subscribed"))).containsExactly("job.failed");
        assertThat(types(receiver.accepted("/ok/own"))).containsExactly("job.failed");
        assertThat(receiver.accepted("/ok/own").get(0).get("payload").get("data").get("namespace").asString())
                .isEqualTo("hooks");
    }

    @Test
    void aReceiverThatAnswers500GetsTheSameDeliveryAgain() throws IOException {
        JsonNode created = submit("default", """
                {"name": "hooked-retry", "mode": "collective", "trainers": 1, "entry_point": "true",
                 "notify": [{"url": "%s"}]}""".formatted(receiver.url("fail-once", "retry")));
        receiver.trust(created.get("webhook_secret").asString());
        await().atMost(DEADLINE).untilAsserted(() -> {
            JsonNode delivery = deliveries("hooked-retry", "default").get(0);
            assertThat(delivery.get("state").asString()).isEqualTo("delivered");
            List<JsonNode> attempts = StreamSupport.stream(delivery.get("attempts").spliterator(), false).toList();
            assertThat(attempts).extracting(a -> a.get("status").asInt()).endsWith(500, 200);
            assertThat(attempts.get(attempts.size() - 2).get("answer").asString()).isEqualTo("failed on purpose");
        });
        List<JsonNode> tries = receiver.requests().stream()
                .filter(r -> r.get("path").asString().equals("/fail-once/retry") && r.get("verified").asBoolean())
                .toList();
        assertThat(tries).extracting(r -> r.get("id").asString()).as("one webhook-id for every attempt").containsOnly(
                tries.get(0).get("id").asString());
        assertThat(tries.get(0).get("body").asString()).isEqualTo(tries.get(tries.size() - 1).get("body").asString());
    }

    @Test
    void aReceiverThatNeverAnswersIsRetriedAndHoldsUpNoOther() throws IOException {
        JsonNode created = submit("default", """
                {"name": "hooked-silent", "mode": "collective", "trainers": 1, "entry_point": "true",
                 "notify": [{"url": "%s"}, {"url": "%s"}]}""".formatted(silent.url("never", "x"),
                receiver.url("ok", "beside-silent")));
        receiver.trust(created.get("webhook_secret").asString());
        await().atMost(DEADLINE).until(() -> !receiver.accepted("/ok/beside-silent").isEmpty());
        await().atMost(DEADLINE).untilAsserted(() -> {
            JsonNode never = deliveries("hooked-silent", "default").get(0);
            assertThat(never.get("url").asString()).contains("/never/");
            assertThat(never.get("state").asString()).isEqualTo("pending");
            assertThat(never.get("attempts").size()).isGreaterThanOrEqualTo(2);
            assertThat(never.get("attempts").get(0).has("status")).isFalse();
            assertThat(never.get("attempts").get(0).get("answer").asString()).isEqualTo("no answer within 1000 ms");
            assertThat(never.get("next_attempt_at").asString()).isNotBlank();
        });
        JsonNode beside = deliveries("hooked-silent", "default").get(1);
        assertThat(beside.get("state").asString()).isEqualTo("delivered");
        assertThat(beside.get("attempts").size()).isEqualTo(1);
    }

    @Test
    void aUrlOutsideTheAllowedHostsIsRefusedNamingTheFieldAndNothingIsCreated() {
        String body = """
                {"name": "hooked-refused", "entry_point": "true",
                 "notify": [{"url": "%s"}, {"url": "http://10.0.0.1/hook"}]}""".formatted(receiver.url("ok", "refused"));
        for (String path : List.of("/jobs?namespace=default", "/jobs?namespace=default&dry_run=true")) {
            HttpResponse<String> refused = service.post(path, body);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            assertThat(refused.headers().firstValue("content-type")).hasValue("application/problem+json");
            JsonNode problem = ServiceClient.parse(refused.body());
            assertThat(problem.get("type").asString()).isEqualTo("urn:paddlejobs:problem:webhook-not-allowed");
            assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("notify[1].url");
            assertThat(problem.get("errors").get(0).get("message").asString())
                    .contains("10.0.0.1").contains("loopback only");
        }
        assertThat(service.get("/jobs/hooked-refused?namespace=default").statusCode()).isEqualTo(404);
        assertThat(service.get("/jobs/hooked-refused/deliveries?namespace=default").statusCode()).isEqualTo(404);
    }

    @Test
    void aUrlOrEventThatBreaksItsRuleIsAnInvalidRequestNamingTheField() {
        HttpResponse<String> scheme = service.post("/jobs?namespace=default", """
                {"entry_point": "true", "notify": [{"url": "ftp://127.0.0.1/hook"}]}""");
        assertThat(scheme.statusCode()).as(scheme.body()).isEqualTo(400);
        assertThat(ServiceClient.parse(scheme.body()).get("errors").get(0).get("field").asString()).isEqualTo("notify[0].url");
        HttpResponse<String> event = service.post("/jobs?namespace=default", """
                {"entry_point": "true", "notify": [{"url": "http://127.0.0.1/hook", "events": ["exploded"]}]}""");
        assertThat(event.statusCode()).as(event.body()).isEqualTo(400);
        assertThat(event.body()).contains("notify[0].events[0]").contains("started, restarting");
    }
}
