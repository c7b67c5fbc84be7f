package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The outbox across a kill -9 of the service: what was pending is delivered once it runs again. */
@Tag("webhooks")
class WebhooksRestartTest {

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    private String[] settings() {
        return new String[] {"--paddlejobs.webhooks.dir=" + dir.resolve("outbox"),
            "--paddlejobs.webhooks.retry-backoff=200ms", "--paddlejobs.webhooks.max-retry-backoff=500ms",
            "--paddlejobs.webhooks.secrets.default=" + WebhooksTest.NAMESPACE_SECRET};
    }

    private static List<String> states(ServiceClient service) {
        JsonNode deliveries = service.getJson("/jobs/crashed/deliveries?namespace=default").get("deliveries");
        return StreamSupport.stream(deliveries.spliterator(), false)
                .map(d -> d.get("event").asString() + " " + d.get("state").asString()).toList();
    }

    @Test
    void deliveriesPendingWhenTheServiceIsKilledAreDeliveredOnceItRunsAgain() throws IOException, InterruptedException {
        try (WebhookReceiver receiver = WebhookReceiver.start(dir.resolve("receiver"))) {
            receiver.trust(WebhooksTest.NAMESPACE_SECRET);
            receiver.down(true);
            Path root = dir.resolve("data");
            ServiceProcess first = ServiceProcess.start(root, settings());
            try {
                ServiceClient service = new ServiceClient(first.port());
                HttpResponse<String> created = service.post("/jobs?namespace=default", """
                        {"name": "crashed", "mode": "collective", "trainers": 1, "entry_point": "true",
                         "notify": [{"url": "%s", "events": ["started", "succeeded"]}]}"""
                        .formatted(receiver.url("down", "crash")));
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                service.awaitPhase("crashed", "default", "Succeeded", DEADLINE);
                // Both events are in the outbox and have been refused at least once: pending.
                await().atMost(DEADLINE).until(() -> states(service).equals(List.of("started pending", "succeeded pending"))
                        && receiver.requests().stream().filter(r -> r.path("answer").asInt() == 503).count() >= 2);
            } finally {
                first.kill();
            }
            assertThat(receiver.accepted("/down/crash")).isEmpty();
            receiver.down(false);

            try (ServiceProcess second = ServiceProcess.start(root, settings())) {
                ServiceClient service = new ServiceClient(second.port());
                await().atMost(DEADLINE).until(() -> receiver.accepted("/down/crash").size() >= 2);
                List<JsonNode> got = receiver.accepted("/down/crash");
                assertThat(got).extracting(r -> r.get("payload").get("type").asString())
                        .containsExactly("job.started", "job.succeeded");
                assertThat(got).extracting(r -> r.get("id").asString()).doesNotHaveDuplicates();
                await().atMost(DEADLINE).until(() -> states(service).equals(
                        List.of("started delivered", "succeeded delivered")));
                JsonNode started = service.getJson("/jobs/crashed/deliveries?namespace=default").get("deliveries").get(0);
                List<Integer> answers = StreamSupport.stream(started.get("attempts").spliterator(), false)
                        .map(a -> a.path("status").asInt()).toList();
                assertThat(answers).as("the attempts before the kill were kept").contains(503).endsWith(200);
            }
        }
    }
}
