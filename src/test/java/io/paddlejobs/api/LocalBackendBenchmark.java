package io.paddlejobs.api;

import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Figures for the local backend, printed rather than asserted (timings belong in a benchmark,
 * not in a unit test). Not part of {@code ./mvnw verify}; run it with
 * {@code ./mvnw test -Dtest=LocalBackendBenchmark -DexcludedGroups=none}.
 */
@Tag("benchmark")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LocalBackendBenchmark {

    private static final int STARTS = 30;
    private static final int SLEEPING_JOBS = 50;

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.local.max-running-jobs", () -> SLEEPING_JOBS + 10);
        registry.add("paddlejobs.local.cpus", () -> 1000);
        registry.add("paddlejobs.local.memory", () -> "64TB");
        registry.add("logging.level.root", () -> "WARN");
    }

    @LocalServerPort
    int port;

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void measure() {
        ServiceClient client = new ServiceClient(port);
        startLatency(client);
        memoryPerRunningJob(client);
        statusReadLatency(client);
    }

    /** From sending POST /jobs (2 pservers + 4 trainers) to the last replica process started. */
    private void startLatency(ServiceClient client) {
        List<Long> roundTrip = new ArrayList<>();
        List<Long> untilAllStarted = new ArrayList<>();
        for (int i = 0; i < STARTS + 5; i++) {
            String name = "start-" + i;
            Instant sent = Instant.now();
            HttpResponse<String> response = client.post("/jobs", job(name, "true"));
            Instant returned = Instant.now();
            Instant lastStarted = awaitAllStarted(client, name);
            if (i >= 5) { // the first few warm the JIT up
                roundTrip.add(Duration.between(sent, returned).toMillis());
                untilAllStarted.add(Duration.between(sent, lastStarted).toMillis());
            }
            if (response.statusCode() != 201) {
                throw new IllegalStateException(response.body());
            }
        }
        report("POST /jobs round trip (ms), 2 pservers + 4 trainers", roundTrip);
        report("POST sent -> every replica process started (ms)", untilAllStarted);
    }

    private Instant awaitAllStarted(ServiceClient client, String name) {
        await().atMost(Duration.ofSeconds(30)).until(() -> status(client, name).get("started_at") != null);
        JsonNode status = status(client, name);
        return status.get("replicas").valueStream().map(r -> Instant.parse(r.get("started_at").asString()))
                .max(Instant::compareTo).orElseThrow();
    }

    /** Heap after GC with 50 jobs of {@code sleep} running, against before. */
    private void memoryPerRunningJob(ServiceClient client) {
        long before = usedHeapAfterGc();
        for (int i = 0; i < SLEEPING_JOBS; i++) {
            client.post("/jobs", job("sleeper-" + i, "sleep 600"));
        }
        await().atMost(Duration.ofSeconds(60)).until(() ->
                status(client, "sleeper-" + (SLEEPING_JOBS - 1)).get("phase").asString().equals("Running"));
        long after = usedHeapAfterGc();
        System.out.printf("BENCH heap growth per running job (50 jobs x 6 sleep processes): %.1f KiB%n",
                (after - before) / 1024.0 / SLEEPING_JOBS);
        for (int i = 0; i < SLEEPING_JOBS; i++) {
            client.delete("/jobs/sleeper-" + i);
        }
    }

    private void statusReadLatency(ServiceClient client) {
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            long start = System.nanoTime();
            client.get("/jobs/start-1/status");
            micros.add((System.nanoTime() - start) / 1000);
        }
        report("GET /jobs/{name}/status (us)", micros.subList(500, micros.size()));
    }

    private JsonNode status(ServiceClient client, String name) {
        return json.readTree(client.get("/jobs/" + name + "/status").body());
    }

    private static long usedHeapAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static void report(String what, List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        System.out.printf("BENCH %s: median %d, p90 %d, max %d (n=%d)%n", what, sorted.get(sorted.size() / 2),
                sorted.get((int) (sorted.size() * 0.9)), sorted.get(sorted.size() - 1), sorted.size());
    }

    private static String job(String name, String entryPoint) {
        return """
                {"name": "%s", "entry_point": "%s", "pservers": 2, "trainers": 4}""".formatted(name, entryPoint);
    }
}
