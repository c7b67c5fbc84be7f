package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

    @Test
    void aFollowStreamsLineByLineUntilTheReplicaEndsPastTheAsyncTimeout() throws Exception {
        new ServiceClient(port).submit("{\"name\":\"slow\",\"entry_point\":\"for i in $(seq 1 10); do echo line $i; "
                + "sleep 0.4; done\",\"trainers\":1,\"pservers\":1}");
        long started = System.nanoTime();

        HttpResponse<Stream<String>> response = http.send(logs("slow", "follow=true"), HttpResponse.BodyHandlers.ofLines());
        Iterator<String> lines = response.body().iterator();
        String first = lines.next();
        Duration firstAfter = Duration.ofNanos(System.nanoTime() - started);
        List<String> all = new ArrayList<>(List.of(first));
        lines.forEachRemaining(all::add);
        Duration endAfter = Duration.ofNanos(System.nanoTime() - started);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(first).isEqualTo("line 1");
        assertThat(firstAfter).as("the first line arrives as it is written").isLessThan(Duration.ofMillis(2500));
        assertThat(all).endsWith("line 9", "line 10").hasSize(10);
        assertThat(endAfter).as("it stayed open past the 1 s async timeout").isGreaterThan(Duration.ofSeconds(3));
    }

    @Test
    void manyFollowersDoNotHoldUpAShortTail() throws Exception {
        var client = new ServiceClient(port);
        client.submit("{\"name\":\"long\",\"entry_point\":\"for i in $(seq 1 40); do echo tick $i; sleep 0.5; done\","
                + "\"trainers\":1,\"pservers\":1}");
        client.submit("{\"name\":\"small\",\"entry_point\":\"echo one; echo two\",\"trainers\":1,\"pservers\":1}");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.getJson("/jobs/small/status").get("phase").asString()
                .equals("Succeeded"));
        List<CompletableFuture<HttpResponse<Void>>> followers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            followers.add(http.sendAsync(logs("long", "follow=true"), HttpResponse.BodyHandlers.discarding()));
        }

        long started = System.nanoTime();
        HttpResponse<String> tail = http.send(logs("small", "tail=1"), HttpResponse.BodyHandlers.ofString());

        assertThat(tail.statusCode()).isEqualTo(200);
        assertThat(tail.body()).isEqualTo("two\n");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
        client.send("POST", "/jobs/long/cancel", null);
        for (var follower : followers) {
            assertThat(follower.get().statusCode()).isEqualTo(200);
        }
    }
}
