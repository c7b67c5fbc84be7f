package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.Tokens;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Red team of 7 December, A1: on a JDK without virtual threads Tomcat serves requests on a fixed pool, and one
 * tenant that opened many {@code POST /jobs} and sent their bodies a byte at a time held every thread: readiness and
 * other tenants timed out. Here the pool has 8 threads and Tomcat waits 5 minutes on a silent client, so without the
 * cap on bodies per caller, or with Tomcat reading the rest of every refused body before closing, another tenant's
 * request would wait minutes. Each client sends its headers and the first byte of a 100-byte body, then nothing:
 * alice's first three and three refused for want of a token hold a thread each, every other is answered and closed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("redteam")
class SlowBodiesTest {

    private static final String ALICE = "alice-slow-bodies";
    private static final String BOB = "bob-slow-bodies";
    private static final int PER_CALLER = 3;
    private static final int SENT = 8;
    /** Other loopback addresses: callers without a token are told apart by their address. */
    private static final List<String> ADDRESSES = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4");
    /** Far longer than an answer takes on a loaded machine, far shorter than Tomcat waits on a silent client. */
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    /** One reader per socket: a held one blocks its reader until the socket is closed. */
    private static final ExecutorService READERS = Executors.newCachedThreadPool();

    @TempDir
    static Path tmp;

    @LocalServerPort
    int port;

    private final List<Socket> sockets = new ArrayList<>();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.security.mode", () -> "token");
        registry.add("paddlejobs.allow-shared-files", () -> "true"); // about threads, not files
        registry.add("paddlejobs.security.token-file", SlowBodiesTest::tokenFile);
        registry.add("server.tomcat.threads.max", () -> "8");
        registry.add("server.tomcat.threads.min-spare", () -> "1");
        registry.add("server.tomcat.connection-timeout", () -> "5m");
        registry.add("paddlejobs.web.request-body-timeout", () -> "5m");
        registry.add("paddlejobs.web.max-bodies-per-caller", () -> PER_CALLER);
        registry.add("paddlejobs.web.max-bodies-in-progress", () -> PER_CALLER);
    }

    @AfterEach
    void closeSockets() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    @Test
    void aTenantTricklingBodiesHoldsAtMostItsShareOfThreadsAndSoDoTokenlessOnesTheRestAreClosedUnread()
            throws Exception {
        List<Socket> alices = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            alices.add(trickle(ALICE));
        }
        List<Socket> tokenless = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            tokenless.add(trickle(null));
        }

        // Alice's three in progress hold a thread each while their bodies do not come; every other is answered at once.
        List<CompletableFuture<String>> alicesAnswers = alices.stream().map(SlowBodiesTest::answerThenClose).toList();
        await().atMost(DEADLINE).until(() -> alicesAnswers.stream().filter(CompletableFuture::isDone).count()
                == SENT - PER_CALLER);
        HttpResponse<String> bobsList = get("/jobs?namespace=team-b", BOB);
        HttpResponse<String> readiness = get("/actuator/health/readiness", null);
        List<CompletableFuture<String>> tokenlessAnswers = tokenless.stream().map(SlowBodiesTest::answerThenClose).toList();
        await().atMost(DEADLINE).until(() -> tokenlessAnswers.stream().filter(CompletableFuture::isDone).count()
                == SENT - PER_CALLER);

        assertThat(alicesAnswers.stream().filter(answer -> !answer.isDone())).hasSize(PER_CALLER);
        assertThat(alicesAnswers.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join))
                .hasSize(SENT - PER_CALLER).allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 429")
                        .contains("Retry-After: 1", "urn:paddlejobs:problem:bodies-in-progress",
                                "User 'alice' is sending 3 request bodies", "paddlejobs.web.max-bodies-per-caller"));
        assertThat(tokenlessAnswers.stream().filter(answer -> !answer.isDone())).hasSize(PER_CALLER);
        assertThat(tokenlessAnswers.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join))
                .allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 401"));
        assertThat(bobsList.statusCode()).as(bobsList.body()).isEqualTo(200);
        assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
    }

    /**
     * Red team of 7 December, A1 for several callers: each within its own share, together they held the whole pool
     * (13 callers of 16 slow bodies take 200 threads). Here all callers together may send 3 bodies at once, and 3
     * refused ones are read after their answers: of alice's and bob's 6 (neither over its own 3), 3 hold a thread
     * and 3 are refused for the total; of 9 tokenless clients from three addresses, answered 401, 3 read on. Without
     * the total, 15 slow bodies would hold all 8 threads, and bob's list and readiness would wait minutes.
     */
    @Test
    void manyCallersEachWithinTheirShareHoldNoMoreThanTheTotalAndTheServiceStillAnswers() throws Exception {
        List<CompletableFuture<String>> signedIn = new ArrayList<>();
        List<CompletableFuture<String>> tokenless = new ArrayList<>();
        for (int i = 0; i < PER_CALLER; i++) {
            signedIn.add(answerThenClose(trickle(ALICE)));
            signedIn.add(answerThenClose(trickle(BOB)));
            for (String address : ADDRESSES) {
                tokenless.add(answerThenClose(trickle(null, address)));
            }
        }

        await().atMost(DEADLINE).until(() -> signedIn.stream().filter(CompletableFuture::isDone).count() == PER_CALLER
                && tokenless.stream().filter(CompletableFuture::isDone).count() == tokenless.size() - PER_CALLER);
        HttpResponse<String> bobsList = get("/jobs?namespace=team-b", BOB);
        HttpResponse<String> readiness = get("/actuator/health/readiness", null);

        assertThat(signedIn.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join))
                .allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 429").contains(
                        "urn:paddlejobs:problem:bodies-in-progress", "reading 3 request bodies at once",
                        "paddlejobs.web.max-bodies-in-progress"));
        assertThat(tokenless.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join))
                .allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 401"));
        assertThat(bobsList.statusCode()).as(bobsList.body()).isEqualTo(200);
        assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
        assertThat(signedIn.stream().filter(CompletableFuture::isDone)).as("answered: the other 3 hold their threads").hasSize(PER_CALLER);
        assertThat(tokenless.stream().filter(CompletableFuture::isDone)).hasSize(tokenless.size() - PER_CALLER);
    }

    /** A {@code POST /jobs} whose headers and first body byte are sent, and nothing after. */
    private Socket trickle(String token) throws IOException {
        return trickle(token, "127.0.0.1");
    }

    /** As {@link #trickle(String)}, sent from {@code address}. */
    private Socket trickle(String token, String address) throws IOException {
        Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(address), 0);
        sockets.add(socket);
        socket.setSoTimeout((int) DEADLINE.toMillis());
        String request = "POST /jobs HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** The whole answer, read until the service closes the connection (a read timeout past the deadline fails it). */
    private static CompletableFuture<String> answerThenClose(Socket socket) {
        return CompletableFuture.supplyAsync(() -> {
            try (InputStream in = socket.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, READERS);
    }

    private HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(DEADLINE);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String tokenFile() {
        return Tokens.aliceAndBob(tmp, ALICE, BOB);
    }
}
