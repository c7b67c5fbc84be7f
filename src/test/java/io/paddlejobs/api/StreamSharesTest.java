package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Tokens;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The red-team experiment on status streams, in token mode: one tenant's clients that stopped
 * reading (a 1 KiB receive buffer, never read) on a job that writes metrics as fast as it can. Once
 * they were 32, every tenant's stream waited for them (a 3 s job's end arrived after 45 s): another
 * tenant's sends waited behind theirs, each until the send timeout gave up on it. The jobs here wait
 * for the test (a file in their trainer's working directory) rather than for the clock.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // stop the jobs' processes before the temporary directory goes
@Tag("redteam") // Red team round 2, M3: stalled stream clients delaying every tenant.
class StreamSharesTest {

    private static final String ALICE = "alice-streams";
    private static final String BOB = "bob-streams";
    private static final int STALLED = 40;
    /**
     * How long a send to a client that stopped reading may take before its stream is dropped: far
     * longer than another tenant's event takes to arrive on a busy machine, so that "before the first
     * stalled stream was dropped" means "without waiting for the stalled ones".
     */
    private static final String SEND_TIMEOUT = "15s";
    private static final String WAIT_FOR_GO = "while [ ! -e go ]; do sleep 0.1; done; ";

    @TempDir
    static Path tmp;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.security.mode", () -> "token");
        registry.add("paddlejobs.allow-shared-files", () -> "true"); // about streams, not files
        registry.add("paddlejobs.security.token-file", StreamSharesTest::tokenFile);
        registry.add("paddlejobs.streams.max-open-per-user", () -> STALLED);
        registry.add("paddlejobs.streams.send-timeout", () -> SEND_TIMEOUT);
    }

    @Test
    void fortyStalledStreamsOfOneTenantNeitherDelayAnotherTenantsStatusNorOutstayTheSendTimeout() throws Exception {
        ServiceClient bob = new ServiceClient(port).withToken(BOB);
        ServiceClient alice = new ServiceClient(port).withToken(ALICE);
        bob.submit(spew(), "team-b");
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < STALLED; i++) { // while spew is quiet, so that each first event is small
                stalled.add(stalledStream("/jobs/spew/status?namespace=team-b", BOB));
            }
            try (var refused = stream("/jobs/spew/status?namespace=team-b", BOB)) {
                assertThat(refused.in().readLine()).contains(" 429 ");
                assertThat(lineWith(refused.in(), "\"detail\"")).contains(
                        "User 'bob' already has 40 event streams open", "paddlejobs.streams.max-open-per-user");
            }

            alice.submit("{\"name\": \"victim\", \"entry_point\": \"" + WAIT_FOR_GO + "true\"}", "team-a");
            try (var victim = stream("/jobs/victim/status?namespace=team-a", ALICE)) {
                go("team-b", "spew");
                // Well into the flood: the stalled streams' buffers are full and bob's sends wait on them.
                await().atMost(Duration.ofSeconds(60)).until(() -> lastStep(bob.logs("spew",
                        "namespace=team-b&role=trainer&index=0&tail=1")) >= 400);
                go("team-a", "victim");
                victim.awaitEvent("status", "\"Succeeded\"");
            }

            assertThat(opens("/jobs/spew/status?namespace=team-b", BOB))
                    .as("bob may open a stream again: one of his stalled ones was dropped before alice's event came")
                    .isFalse();
            // Each stalled stream is dropped once one of its sends has taken the send timeout, so bob may open streams again.
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> opens("/jobs/spew/status?namespace=team-b", BOB));
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
            bob.send("POST", "/jobs/spew/cancel?namespace=team-b", null);
        }
    }

    /** A job that, once the test says go, writes a 60-metric line every few milliseconds. */
    private static String spew() {
        String metrics = IntStream.range(0, 60).mapToObj(i -> "\"metric_" + i + "\": 0.123456")
                .collect(Collectors.joining(", "));
        String entryPoint = WAIT_FOR_GO + "i=0; while true; do i=$((i+1)); echo 'PADDLEJOBS_METRICS {\"step\": '$i', " + metrics
                + "}'; sleep 0.005; done";
        return JsonMapper.builder().build().writeValueAsString(Map.of("name", "spew", "entry_point", entryPoint));
    }

    /** A client that asks for a stream, reads that it is open, then reads nothing more, through a 1 KiB receive buffer. */
    private Socket stalledStream(String path, String token) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(1024);
        socket.setSoTimeout(30_000);
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        request(socket, path, token);
        var in = socket.getInputStream();
        var statusLine = new StringBuilder();
        for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
            statusLine.append((char) b);
        }
        assertThat(statusLine).contains(" 200 ");
        return socket;
    }

    private static String lineWith(BufferedReader in, String part) throws IOException {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.contains(part)) {
                return line;
            }
        }
        throw new IOException("no line with " + part);
    }

    private EventStreamSocket stream(String path, String token) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        request(socket, path, token);
        return new EventStreamSocket(socket,
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 512));
    }

    private boolean opens(String path, String token) {
        try (var stream = stream(path, token)) {
            String statusLine = stream.in().readLine();
            return statusLine != null && statusLine.contains(" 200 ");
        } catch (IOException e) {
            return false;
        }
    }

    /** Lets a job that waits for the test ({@link #WAIT_FOR_GO}) go on, once it has its working directory. */
    private static void go(String namespace, String job) throws IOException {
        // The job's one trainer works in a directory of its own.
        Path work = tmp.resolve("data/jobs").resolve(namespace).resolve(job).resolve("work/trainer-0");
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.isDirectory(work));
        Files.createFile(work.resolve("go"));
    }

    /** The step of spew's last line; 0 before it has one. */
    private static long lastStep(String tail) {
        Matcher step = Pattern.compile("\"step\": (\\d+)").matcher(tail);
        return step.find() ? Long.parseLong(step.group(1)) : 0;
    }

    private void request(Socket socket, String path, String token) throws IOException {
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    static String tokenFile() {
        return Tokens.aliceAndBob(tmp, ALICE, BOB);
    }
}
