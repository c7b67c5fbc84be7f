package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Round 3's M1 replayed: one tenant's 12 jobs each notify 10 receivers that accept and never answer,
 * which held every sender for hours; another tenant's delivery waited 6 min 17 s without an attempt.
 * Now namespaces take turns with a share of the senders each, and the other tenant's delivery goes at
 * once. Its receivers are plain sockets and an in-process server: no Python needed.
 */
@Tag("redteam")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // stop the jobs' processes before the temporary directory goes
class WebhookStarvationTest {

    /** Under load a job takes seconds to start and end; generous, as CI's machine is shared. */
    private static final Duration JOB_DEADLINE = Duration.ofSeconds(90);
    /** The bound for the other tenant's delivery, once its job has ended. */
    private static final Duration DELIVERED_WITHIN = Duration.ofSeconds(10);

    static Path dir;
    static final List<ServerSocket> hanging = new ArrayList<>();
    static final List<Socket> held = new CopyOnWriteArrayList<>();
    static HttpServer victim;
    static final List<String> delivered = new CopyOnWriteArrayList<>();

    @LocalServerPort
    int port;

    @BeforeAll
    static void receivers() throws IOException {
        dir = Files.createTempDirectory("webhook-starvation");
        for (int i = 0; i < 10; i++) {
            ServerSocket receiver = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            hanging.add(receiver);
            Thread accepting = new Thread(() -> {
                try {
                    while (true) {
                        held.add(receiver.accept()); // accepted, never read, never answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            accepting.setDaemon(true);
            accepting.start();
        }
        victim = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        victim.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
                delivered.add(new String(body.readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(200, 2);
                out.write("ok".getBytes(StandardCharsets.UTF_8));
            }
        });
        victim.start();
    }

    @AfterAll
    static void stopReceivers() throws IOException {
        victim.stop(0);
        for (ServerSocket receiver : hanging) {
            receiver.close();
        }
        for (Socket socket : held) {
            socket.close();
        }
    }

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dir.resolve("data").toString());
        registry.add("paddlejobs.local.cpus", () -> 1000);
        registry.add("paddlejobs.local.memory", () -> "64TB");
    }

    @Test
    void anotherNamespacesDeliveryGoesAtOnceBesideTenHangingReceivers() {
        ServiceClient service = new ServiceClient(port);
        String hangingUrls = hanging.stream().map(r -> "{\"url\": \"http://127.0.0.1:" + r.getLocalPort() + "/h\"}")
                .collect(Collectors.joining(", "));
        for (int i = 0; i < 12; i++) {
            submit(service, "team-b", "flood-" + i, hangingUrls);
        }
        // Team B's deliveries are being sent, to receivers that never answer.
        await().atMost(JOB_DEADLINE).until(() -> held.size() >= 2);

        submit(service, "team-a", "a-victim", "{\"url\": \"http://127.0.0.1:" + victim.getAddress().getPort() + "/ok\"}");
        service.awaitPhase("a-victim", "team-a", "Succeeded", JOB_DEADLINE);

        await().atMost(DELIVERED_WITHIN).until(() -> delivered.stream().anyMatch(body -> body.contains("a-victim")));
        // Round 3's M6: with no paddlejobs.webhooks.dir, the outbox is under the data root, not the working directory.
        assertThat(dir.resolve("data").resolve("webhooks").resolve("team-a").resolve("a-victim.json")).isRegularFile();
    }

    private static void submit(ServiceClient service, String namespace, String name, String notify) {
        HttpResponse<String> created = service.post("/jobs?namespace=" + namespace, """
                {"name": "%s", "mode": "collective", "trainers": 1, "entry_point": "true", "notify": [%s]}"""
                .formatted(name, notify));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }
}
