package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.bench.Figures;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The list and push targets on the local backend: {@code GET /jobs?limit=50} with 10,000
 * jobs held, a status change reaching a status stream, and the heap of 1,000 open streams (measured
 * in a service of its own: see {@link OpenStreams}). One job runs, the rest wait in the queue (one
 * slot), so that jobs cost no processes. Run with
 * {@code ./mvnw -B test -Dtest='*Benchmark' -DexcludedGroups=none}.
 */
@Tag("benchmark")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LocalPushBenchmark {

    private static final int JOBS = Integer.getInteger("benchmark.jobs", 10_000);
    private static final int WATCHERS = 1_000;
    private static final int CHANGES = 200;
    private static final int READS = 500;

    @TempDir
    static Path dataRoot;

    @TempDir
    static Path heapRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.local.max-running-jobs", () -> 1);
        registry.add("logging.level.root", () -> "WARN");
    }

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    @Test
    void measure() throws Exception {
        ServiceClient client = new ServiceClient(port);
        Figures figures = new Figures("local backend, " + JOBS + " jobs (1 running, the rest queued)");
        try {
            submitAll(client);
            listReads(client, figures);
            changeReachesAStream(figures);
            heapOfOpenStreams(figures);
        } finally {
            figures.print();
        }
    }

    private void submitAll(ServiceClient client) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> submits = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                String name = "job-" + i;
                submits.add(pool.submit(() -> client.submit("""
                        {"name": "%s", "entry_point": "sleep 600", "trainers": 1, "pservers": 1}""".formatted(name))));
            }
            for (Future<?> submit : submits) {
                submit.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(backend.list("default")).hasSize(JOBS);
    }

    private void listReads(ServiceClient client, Figures figures) {
        List<Long> reads = new ArrayList<>();
        for (int i = 0; i < READS + 50; i++) {
            long start = System.nanoTime();
            var response = client.get("/jobs?limit=50", "application/json");
            long took = System.nanoTime() - start;
            assertThat(response.statusCode()).isEqualTo(200);
            if (i >= 50) {
                reads.add(took);
            }
        }
        figures.latency("GET /jobs?limit=50, " + JOBS + " jobs", reads);
        figures.value("  p99", Figures.p(reads, 99), "ms", "<= 20 ms");
    }

    /**
     * From the moment a queued job is cancelled (in the process, so that no HTTP time counts) to the
     * {@code status} event saying so on its open stream. The last jobs of the queue are cancelled, so
     * that no other job's queue position changes.
     */
    private void changeReachesAStream(Figures figures) throws IOException {
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < CHANGES; i++) {
            String name = "job-" + (JOBS - 1 - i);
            try (EventStreamSocket stream = EventStreamSocket.open(port, "/jobs/" + name + "/status")) {
                stream.awaitEvent("status", "");
                long start = System.nanoTime();
                backend.cancel(new JobKey("default", name));
                stream.awaitEvent("status", "\"Cancelled\"");
                latencies.add(System.nanoTime() - start);
            }
        }
        figures.latency("a status change reaching its SSE stream", latencies);
        figures.value("  p99", Figures.p(latencies, 99), "ms", "<= 100 ms");
    }

    /**
     * The service's live heap with {@value #WATCHERS} status streams open, less with none, then the
     * same for namespace watches. The service runs in a JVM of its own (its data root holds
     * {@value #WATCHERS} queued jobs) and the clients' sockets are held here, so only what the service
     * pays is counted; each figure is a class histogram after a full collection in its JVM.
     */
    private void heapOfOpenStreams(Figures figures) throws Exception {
        try (ServiceProcess service = ServiceProcess.start(heapRoot, "--paddlejobs.local.max-running-jobs=1")) {
            ServiceClient client = new ServiceClient(service.port());
            for (int i = 0; i < WATCHERS; i++) {
                client.submit("""
                        {"name": "job-%d", "entry_point": "sleep 600"}""".formatted(i));
            }
            List<String> statusPaths = new ArrayList<>();
            for (int i = 0; i < WATCHERS; i++) {
                statusPaths.add("/jobs/job-" + i + "/status");
            }
            try {
                OpenStreams.measure(service, figures, "status streams", statusPaths, "event:status");
                OpenStreams.measure(service, figures, "namespace watches",
                        Collections.nCopies(WATCHERS, "/jobs?watch=true"), ":watching");
            } finally {
                // The running job's processes would outlive the service (a restart adopts them).
                client.send("POST", "/jobs/job-0/cancel", null);
            }
        }
    }
}
