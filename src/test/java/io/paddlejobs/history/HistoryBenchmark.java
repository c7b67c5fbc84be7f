package io.paddlejobs.history;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history with {@code bench.history.jobs} finished jobs (100,000 by default) in one namespace of
 * the embedded store, through the service: a page of the list, a finished job's status, the store's
 * size per job, and what its write adds to a submit. The list is measured side by side with reading
 * the namespace's every row, as the list did before it paged in SQL. Figures are printed with their
 * targets; run it with {@code ./mvnw test -Dtest=HistoryBenchmark -DexcludedGroups=none}.
 */
@Tag("benchmark")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HistoryBenchmark {

    private static final int JOBS = Integer.getInteger("bench.history.jobs", 100_000);
    private static final int READS = 1000;
    private static final int SUBMITS = 100;
    private static final Instant NEWEST = Instant.parse("2026-12-01T00:00:00Z");
    private static final String LOG = "step 1 loss 0.5\n".repeat(64); // 1 KiB per replica

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", dataRoot::toString);
        registry.add("paddlejobs.local.max-running-jobs", () -> 50);
        registry.add("paddlejobs.local.cpus", () -> 1000);
        registry.add("paddlejobs.local.memory", () -> "64TB");
        registry.add("paddlejobs.history.retention.max-count", () -> JOBS * 2);
        registry.add("paddlejobs.history.retention.max-age", () -> "3650d");
        registry.add("logging.level.root", () -> "WARN");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcJobHistory history;

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void measure() throws Exception {
        long filled = System.nanoTime();
        fill();
        System.out.printf("BENCH filled %,d finished jobs (2 transitions, a 1 KiB log each) in %.1f s%n", JOBS,
                (System.nanoTime() - filled) / 1e9);
        ServiceClient client = new ServiceClient(port);

        List<Long> firstPage = new ArrayList<>();
        List<Long> deepPage = new ArrayList<>();
        String deep = tokenAfterPages(client, 20);
        for (int i = 0; i < READS; i++) {
            firstPage.add(timed(() -> expect(client.get("/jobs?limit=50"), 200)));
            deepPage.add(timed(() -> expect(client.get("/jobs?limit=50&continue=" + deep), 200)));
        }
        report("GET /jobs?limit=50, first page (ms)", firstPage, 50);
        report("GET /jobs?limit=50, page 21 (ms)", deepPage, 50);
        List<Long> everyRow = new ArrayList<>();
        JobQuery all = new JobQuery("default", null, Map.of(), Integer.MAX_VALUE, null);
        for (int i = 0; i < 5; i++) {
            everyRow.add(timed(() -> history.listed(all, null, Integer.MAX_VALUE - 1)));
        }
        report("before: reading the namespace's every row, as the list did (ms)", everyRow, 0);

        Random random = new Random(1);
        List<Long> status = new ArrayList<>();
        for (int i = 0; i < READS; i++) {
            String name = "done-" + random.nextInt(JOBS);
            status.add(timed(() -> expect(client.get("/jobs/" + name + "/status"), 200)));
        }
        report("GET /jobs/{name}/status of an archived job (ms)", status, 20);

        long bytes;
        try (Stream<Path> files = Files.walk(dataRoot.resolve("history"))) {
            bytes = files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
        System.out.printf("BENCH embedded store: %.1f MiB, %.2f KiB per job (its 1 KiB log included)%n",
                bytes / 1048576.0, bytes / 1024.0 / JOBS);

        submitCost(client);
    }

    /** A submit's p50 through the service, and, in the same rounds, the history's write of a submit alone. */
    private void submitCost(ServiceClient client) {
        List<Long> submits = new ArrayList<>();
        List<Long> writes = new ArrayList<>();
        for (int i = 0; i < SUBMITS + 10; i++) {
            String name = "submit-" + i;
            long submit = timed(() -> expect(client.post("/jobs", """
                    {"name": "%s", "entry_point": "true", "mode": "collective", "trainers": 1}""".formatted(name)), 201));
            JobPlan plan = HistoryStores.plan("bench", "write-" + i);
            long write = timed(() -> history.submitted(plan));
            if (i >= 10) {
                submits.add(submit);
                writes.add(write);
            }
        }
        double submitP50 = median(submits);
        double writeP50 = median(writes);
        report("POST /jobs (ms)", submits, 0);
        report("the history's write of a submit (ms)", writes, 0);
        System.out.printf("BENCH the history's share of a submit's p50: %.1f%% (target <= 10%%)%n",
                100 * writeP50 / submitP50);
    }

    private void fill() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(2);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int first = w;
            done.add(writers.submit(() -> {
                for (int i = first; i < JOBS; i += 2) {
                    JobPlan plan = HistoryStores.plan("default", "done-" + i);
                    // One a minute back from the newest, some sharing a second as a cluster's times do.
                    Instant created = NEWEST.minusSeconds(60L * (i / 3));
                    history.record(HistoryStores.job(plan, JobPhase.RUNNING, "Started", created, null));
                    history.record(HistoryStores.job(plan, JobPhase.SUCCEEDED, "Completed", created,
                            created.plusSeconds(30)));
                    history.keepLog(new JobKey("default", plan.name()), Role.TRAINER, 0, LOG);
                }
                return null;
            }));
        }
        for (Future<?> each : done) {
            each.get();
        }
        writers.shutdown();
    }

    private String tokenAfterPages(ServiceClient client, int pages) {
        String token = null;
        for (int i = 0; i < pages; i++) {
            JsonNode page = json.readTree(client.get("/jobs?limit=50" + (token == null ? "" : "&continue=" + token)).body());
            token = page.path("continue").asString();
        }
        return token;
    }

    private static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(response.statusCode() + ": " + response.body());
        }
    }

    private static long timed(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    private static double median(List<Long> nanos) {
        return nanos.stream().sorted().toList().get(nanos.size() / 2) / 1e6;
    }

    private static void report(String what, List<Long> nanos, double targetP99) {
        List<Long> sorted = nanos.stream().sorted().toList();
        double p50 = sorted.get(sorted.size() / 2) / 1e6;
        double p99 = sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)) / 1e6;
        String target = targetP99 > 0 ? String.format(" (target p99 <= %.0f ms: %s)", targetP99,
                p99 <= targetP99 ? "met" : "NOT met") : "";
        System.out.printf("BENCH %s: p50 %.2f, p99 %.2f, n=%d%s%n", what, p50, p99, sorted.size(), target);
    }
}
