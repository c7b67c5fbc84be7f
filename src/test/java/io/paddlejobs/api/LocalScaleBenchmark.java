package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 14's local targets, printed with what a user would otherwise pay: 1,000 jobs submitted
 * through the service and queued behind the running ones (submit p99 <= 50 ms), then the service
 * restarted over their 1,000 records until it is ready (<= 5 s), next to a start on an empty data
 * root. The services are separate JVMs, as a user runs them. Not part of {@code ./mvnw verify}; run
 * {@code ./mvnw test -Dtest=LocalScaleBenchmark -DexcludedGroups=none}
 * ({@code -Dbench.jobs=N} for another count).
 */
@Tag("benchmark")
class LocalScaleBenchmark {

    private static final int JOBS = Integer.getInteger("bench.jobs", 1000);
    private static final int RUNNING = 4;
    /** The service's own account of its start: how long reading the records took, and the whole start. */
    private static final Pattern RECOVERED = Pattern.compile("Local backend: .*|Started PaddleJobsApplication.*");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dataRoot;

    @TempDir
    Path emptyRoot;

    @Test
    void thousandJobsQueuedAndARestartOverTheirRecords() throws Exception {
        try (ServiceProcess service = start(dataRoot)) {
            ServiceClient client = new ServiceClient(service.port());
            List<Long> dryRuns = new ArrayList<>();
            for (int i = 0; i < 300; i++) { // warms the web layer and the planner up; starts nothing
                String body = job("warm-" + i);
                dryRuns.add(timed(() -> expect(client.post("/jobs?dry_run=true", body), 200)));
            }
            List<Long> submits = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < JOBS; i++) {
                String body = job("job-" + i);
                submits.add(timed(() -> expect(client.post("/jobs", body), 201)));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            List<Long> reads = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                String name = "job-" + (i % JOBS);
                reads.add(timed(() -> expect(client.get("/jobs/" + name + "/status"), 200)));
            }
            JsonNode last = client.getJson("/jobs/job-" + (JOBS - 1) + "/status");
            assertThat(last.get("phase").asString()).isEqualTo("Pending");
            assertThat(last.get("queue_position").asInt()).isEqualTo(JOBS - RUNNING);

            report("POST /jobs, queued behind " + RUNNING + " running jobs (target p99 <= 50 ms)", submits);
            System.out.printf("BENCH   %d submits in %.1f s: %.0f per second, one client%n", JOBS, seconds, JOBS / seconds);
            report("  side by side: POST /jobs?dry_run=true (plans, starts nothing)", dryRuns.subList(100, 300));
            report("  side by side: GET /jobs/{name}/status (the HTTP floor)", reads);
            report("  side by side: by hand, spawning the job's two processes", spawnByHand());
        }

        List<Long> empty = new ArrayList<>();
        List<Long> full = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            empty.add(untilReady(emptyRoot, 0));
            full.add(untilReady(dataRoot, JOBS));
        }
        System.out.printf("BENCH service start until ready, empty data root (ms): %s%n", empty);
        System.out.printf("BENCH service restart until ready, %d job records (ms): %s (target <= 5000); "
                + "the records cost %d ms over an empty start%n", JOBS, full,
                full.stream().mapToLong(Long::longValue).min().orElseThrow()
                        - empty.stream().mapToLong(Long::longValue).min().orElseThrow());
    }

    private static ServiceProcess start(Path root) throws IOException {
        return ServiceProcess.start(root, "--paddlejobs.local.max-running-jobs=" + RUNNING,
                "--paddlejobs.local.cpus=1000", "--paddlejobs.local.memory=64TB");
    }

    /** From starting the service's JVM until it answers ready with every job back; in ms. */
    private static long untilReady(Path root, int jobs) throws Exception {
        long start = System.nanoTime();
        try (ServiceProcess service = start(root)) {
            long ready = (System.nanoTime() - start) / 1_000_000;
            System.out.println("BENCH   " + RECOVERED.matcher(service.output()).results().map(MatchResult::group).toList());
            if (jobs > 0) {
                JsonNode last = new ServiceClient(service.port()).getJson("/jobs/job-" + (jobs - 1) + "/status");
                assertThat(last.get("phase").asString()).as("still queued after the restart").isEqualTo("Pending");
            }
            return ready;
        }
    }

    /** What running the job by hand costs: its two processes spawned (and stopped again). */
    private static List<Long> spawnByHand() {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            List<Process> processes = new ArrayList<>();
            long nanos = timed(() -> {
                for (int p = 0; p < 2; p++) {
                    try {
                        processes.add(new ProcessBuilder("sh", "-c", "sleep 600").start());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            processes.forEach(Process::destroyForcibly);
            if (i >= 50) {
                times.add(nanos);
            }
        }
        return times;
    }

    private static long timed(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    private static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(response.statusCode() + " " + response.body());
        }
    }

    private static void report(String what, List<Long> nanos) {
        List<Long> sorted = nanos.stream().sorted().toList();
        System.out.printf("BENCH %s (ms): p50 %.2f, p99 %.2f, max %.2f (n=%d)%n", what,
                sorted.get(sorted.size() / 2) / 1e6, sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6, sorted.size());
    }

    private static String job(String name) {
        return """
                {"name": "%s", "entry_point": "sleep 600"}""".formatted(name);
    }

    /** The service in its own JVM on a data root, as a user starts it; stopped (SIGTERM) on close. */
}
