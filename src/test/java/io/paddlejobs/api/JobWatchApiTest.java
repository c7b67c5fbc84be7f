package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobWatcher;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code GET /jobs?watch=true} on the local backend, over real HTTP, with real processes. */
class JobWatchApiTest extends ApiTest {

    private static final int STREAMS = 300;

    @Autowired
    JobFeed feed;

    final HttpClient http = HttpClient.newHttpClient();

    /** One server-sent event: its name and its data. */
    record Event(String name, String data) {

        JsonNode json(JsonMapper mapper) {
            return mapper.readTree(data);
        }
    }

    @Test
    void watchSendsEachChangeOfTheMatchingJobsAsTheirListLineAndEndsWhenItsTimeIsUp() throws Exception {
        var stream = open("/jobs?watch=true&namespace=watched&label_selector=team%3Da&timeout_seconds=4");
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));

        client.submit("""
                {"name": "ours", "entry_point": "sleep 0.3", "labels": {"team": "a"}}""", "watched");
        client.submit("""
                {"name": "theirs", "entry_point": "sleep 0.3", "labels": {"team": "b"}}""", "watched");
        List<Event> events = events(stream.body());

        assertThat(events).last().isEqualTo(new Event("end", "timeout"));
        List<JsonNode> lines = events.stream().filter(e -> e.name().equals("job")).map(e -> e.json(json)).toList();
        assertThat(lines).extracting(line -> line.get("name").asString()).containsOnly("ours");
        assertThat(lines).extracting(line -> line.get("phase").asString()).endsWith("Succeeded");
        assertThat(lines.get(0).get("status_url").asString())
                .isEqualTo(client.baseUrl() + "/jobs/ours/status?namespace=watched");
        assertThat(events).as("theirs never matched, so it never stopped matching").noneMatch(e -> e.name().equals("deleted"));
    }

    @Test
    void aJobThatMatchedWhenTheWatchBeganIsSaidToBeOutOnceWhenItStopsMatching() throws Exception {
        client.submit("""
                {"name": "listed", "entry_point": "sleep 600"}""", "phases");
        client.awaitPhase("listed", "phases", "Running", Duration.ofSeconds(30));
        var stream = open("/jobs?watch=true&namespace=phases&phase=Running&timeout_seconds=4");

        assertThat(client.send("POST", "/jobs/listed/cancel?namespace=phases", null).statusCode()).isEqualTo(200);

        List<Event> events = events(stream.body());
        assertThat(events).filteredOn(e -> e.name().equals("deleted")).extracting(e -> e.json(json).get("name").asString())
                .as("what the client listed as Running, cancelled").containsExactly("listed");
        assertThat(events.get(events.size() - 2).name()).as("said last, before the end").isEqualTo("deleted");
        client.delete("/jobs/listed?namespace=phases");
    }

    @Test
    void aWatcherThatBlocksDelaysNoOtherWatcher() throws Exception {
        JobKey key = new JobKey("blocked", "quick");
        CountDownLatch release = new CountDownLatch(1);
        JobWatcher stuck = new JobWatcher() { // as a stream whose client stopped reading: its send waits
            @Override
            public void changed(JobKey changed, Job job) {
                awaitQuietly(release);
            }

            @Override
            public void closed() {
            }
        };
        List<JobPhase> seen = new CopyOnWriteArrayList<>();
        JobWatcher other = new JobWatcher() {
            @Override
            public void changed(JobKey changed, Job job) {
                if (job != null) {
                    seen.add(job.status().phase());
                }
            }

            @Override
            public void closed() {
            }
        };
        feed.watchNamespace("blocked", stuck, "bob");
        feed.watchJob(key, other, "alice");
        try {
            client.submit("""
                    {"name": "quick", "entry_point": "true"}""", "blocked");

            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains(JobPhase.SUCCEEDED));
            assertThat(release.getCount()).as("the stuck watcher is still stuck").isOne();
        } finally {
            release.countDown();
            feed.unwatchNamespace("blocked", stuck);
            feed.unwatchJob(key, other);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void watchSaysWhenAJobWasDeleted() throws Exception {
        client.submit("""
                {"name": "short-lived", "entry_point": "sleep 30"}""", "deleting");
        var stream = open("/jobs?watch=true&namespace=deleting&timeout_seconds=3");

        assertThat(client.delete("/jobs/short-lived?namespace=deleting").statusCode()).isEqualTo(204);

        assertThat(events(stream.body())).filteredOn(e -> e.name().equals("deleted"))
                .extracting(e -> e.json(json).get("name").asString()).containsExactly("short-lived");
    }

    @Test
    void watchWithABadFilterIsAProblemNamingTheParameter() {
        var response = client.get("/jobs?watch=true&phase=Sleeping", "text/event-stream");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("phase");
    }

    @Test
    void everyStatusStreamOpensWithTheJobsStatusHoweverManyAreOpenedOneAfterAnother() throws Exception {
        client.submit("""
                {"name": "streamed", "entry_point": "sleep 600", "trainers": 1, "pservers": 1}""", "streams");
        int failed = 0;
        for (int i = 0; i < STREAMS; i++) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.getOutputStream().write(("GET /jobs/streamed/status?namespace=streams HTTP/1.1\r\nHost: 127.0.0.1:"
                        + port + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                String status = in.readLine();
                String line = status;
                while (line != null && !line.equals("event:status")) {
                    line = in.readLine();
                }
                if (status == null || !status.contains(" 200") || line == null) {
                    failed++;
                }
            }
        }
        client.delete("/jobs/streamed?namespace=streams");

        // The first event is sent on the request's thread (EventStreams.open); from the feed's thread it
        // raced the filters writing headers, which failed a stream now and then under load (seen
        // with 1,000 streams in LocalPushBenchmark; too rare to reproduce here on demand).
        assertThat(failed).as("streams that did not open with a status event, of " + STREAMS).isZero();
    }

    private HttpResponse<Stream<String>> open(String path) throws Exception {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(client.baseUrl() + path))
                .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
    }

    private static List<Event> events(Stream<String> lines) {
        List<Event> events = new ArrayList<>();
        String name = null;
        for (String line : (Iterable<String>) lines::iterator) {
            if (line.startsWith("event:")) {
                name = line.substring("event:".length());
            } else if (line.startsWith("data:") && name != null) {
                events.add(new Event(name, line.substring("data:".length())));
                name = null;
            }
        }
        return events;
    }
}
