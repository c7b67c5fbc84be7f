package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Following a log over real HTTP. The async request timeout that used to cut every follow after 30 s
 * is set to 1 s here: a follow that outlives it by seconds shows the cut is gone, without waiting 30 s.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
@Tag("redteam") // Red team round 1, M1: a log follow cut off after 30 s.
class LogStreamingTest {

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("spring.mvc.async.request-timeout", () -> "1s");
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpRequest logs(String job, String query) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jobs/" + job + "/logs?" + query)).build();
    }

    /** A failure guard only: on a busy machine a pass takes far less. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void aFollowStreamsLineByLineUntilTheReplicaEndsPastTheAsyncTimeout() throws Exception {
        Path gate = dataRoot.resolve("slow-goes-on");
        // Line 1, then nothing more until the test has read line 1 over the follow: a follow that
        // waited for more output, or for the end, could not show it.
        new ServiceClient(port).submit("{\"name\":\"slow\",\"entry_point\":\"echo line 1; while [ ! -e " + gate
                + " ]; do sleep 0.1; done; for i in $(seq 2 10); do echo line $i; sleep 0.4; done\",\"trainers\":1,\"pservers\":1}");

        HttpResponse<Stream<String>> response = http.send(logs("slow", "follow=true"), HttpResponse.BodyHandlers.ofLines());
        Iterator<String> lines = response.body().iterator();
        String first = within(lines::next);
        Files.createFile(gate);
        long released = System.nanoTime();
        List<String> all = new ArrayList<>(List.of(first));
        within(() -> {
            lines.forEachRemaining(all::add);
            return all;
        });
        Duration endAfter = Duration.ofNanos(System.nanoTime() - released);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(first).isEqualTo("line 1");
        assertThat(all).endsWith("line 9", "line 10").hasSize(10);
        assertThat(endAfter).as("it stayed open past the 1 s async timeout").isGreaterThan(Duration.ofSeconds(3));
    }

    @Test
    void manyFollowersDoNotHoldUpAShortTail() throws Exception {
        var client = new ServiceClient(port);
        client.submit("{\"name\":\"long\",\"entry_point\":\"i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.5; done\","
                + "\"trainers\":1,\"pservers\":1}");
        client.submit("{\"name\":\"small\",\"entry_point\":\"echo one; echo two\",\"trainers\":1,\"pservers\":1}");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.getJson("/jobs/small/status").get("phase").asString()
                .equals("Succeeded"));
        List<HttpResponse<Stream<String>>> followers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            followers.add(http.send(logs("long", "follow=true"), HttpResponse.BodyHandlers.ofLines()));
        }
        List<Iterator<String>> followed = followers.stream().map(follower -> follower.body().iterator()).toList();
        for (Iterator<String> lines : followed) {
            assertThat(within(lines::next)).as("each follower is following").startsWith("tick");
        }

        // Held up, the tail would wait for the followers, who wait for a job that runs until it is cancelled.
        HttpResponse<String> tail = http.send(HttpRequest.newBuilder(logs("small", "tail=1").uri()).timeout(DEADLINE).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(tail.statusCode()).isEqualTo(200);
        assertThat(tail.body()).isEqualTo("two\n");
        assertThat(client.getJson("/jobs/long/status").get("phase").asString()).as("the followers' job").isEqualTo("Running");
        client.send("POST", "/jobs/long/cancel", null);
        for (int i = 0; i < followers.size(); i++) {
            Iterator<String> lines = followed.get(i);
            within(() -> {
                lines.forEachRemaining(line -> { });
                return null;
            });
            assertThat(followers.get(i).statusCode()).isEqualTo(200);
        }
    }

    /** What the read gives, failing the test when it has not given it within the deadline. */
    private static <T> T within(Callable<T> read) throws Exception {
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            return reader.submit(read).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } finally {
            reader.shutdownNow();
        }
    }
}
