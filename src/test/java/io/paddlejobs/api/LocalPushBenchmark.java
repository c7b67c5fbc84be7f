package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.bench.Figures;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The list and push targets on the local backend: {@code GET /jobs?limit=50} with 10,000
 * jobs held, a status change reaching a status stream, and the heap of 1,000 open streams. One job
 * runs, the rest wait in the queue (one slot), so that jobs cost no processes. Run with
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
            try (Stream stream = Stream.open(port, name)) {
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

    /** Live heap with {@value #WATCHERS} streams open, less before; the clients' sockets (this JVM) count too. */
    private void heapOfOpenStreams(Figures figures) throws IOException {
        long before = liveHeap();
        List<Stream> streams = new ArrayList<>();
        int broken = 0;
        try {
            for (int i = 0; i < WATCHERS; i++) {
                Stream stream = Stream.open(port, "job-" + (1 + i));
                try {
                    stream.awaitEvent("status", "");
                    streams.add(stream);
                } catch (IOException e) {
                    broken++; // counted, not hidden: see the figure below
                    stream.close();
                }
            }
            long open = liveHeap();
            figures.value(streams.size() + " open status streams: heap", (open - before) / 1024.0 / 1024.0, "MiB", "<= 20 MiB");
            figures.count("streams that ended before their first status event", broken, "0");
        } finally {
            for (Stream stream : streams) {
                stream.close();
            }
        }
    }

    private static long liveHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** A status stream read over a plain socket: the least a client can hold. */
    private record Stream(Socket socket, BufferedReader in) implements AutoCloseable {

        static Stream open(int port, String job) throws IOException {
            Socket socket = new Socket("127.0.0.1", port);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /jobs/" + job + "/status HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new Stream(socket, new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)));
        }

        /** Reads until an event of that name whose data holds {@code containing}. */
        void awaitEvent(String name, String containing) throws IOException {
            String event = null;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("event:")) {
                    event = line.substring("event:".length());
                } else if (line.startsWith("data:") && name.equals(event) && line.contains(containing)) {
                    return;
                }
            }
            throw new IOException("the stream ended before a " + name + " event with " + containing);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
