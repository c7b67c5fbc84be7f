package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.BatchJob;
import io.paddlejobs.backend.slurm.client.JsonWebTokens;
import io.paddlejobs.backend.slurm.client.SlurmCli;
import io.paddlejobs.backend.slurm.client.SlurmRest;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.ServiceClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Submit latency and a status read through the service, against the same calls made directly to
 * Slurm (sbatch and scontrol, as the default client makes them; slurmrestd with a JWT), and the
 * test cluster's start and stop times, in one run on the test cluster. Printed, not asserted. Not
 * part of {@code ./mvnw verify}; run it with
 * {@code ./mvnw test -Dtest=SlurmBenchmark -DexcludedGroups=none -Dslurm.required=true}
 * ({@code -Dbench.rounds=N}, 20 by default; {@code -Dbench.client=rest} for the service's REST client).
 *
 * <p>Beside the submit it times, in the same rounds, what a submit through the service cannot do
 * without: the HTTP request itself (the same body as a dry run: read, checked, planned, answered,
 * nothing written), the job's files on the shared directory (which the batch script runs) and its
 * row in the job history (written before anything runs). Those three and {@code sbatch} are the
 * floor the service's submit is held against.
 */
@Tag("benchmark")
@ExtendWith(SlurmCluster.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SlurmBenchmark {

    private static final int ROUNDS = Integer.getInteger("bench.rounds", 20);
    private static final int WARM_UP = 200;
    private static final String NAMESPACE = "default";
    /** {@code -Dbench.client=rest}: the service submits through slurmrestd, and its floor has slurmrestd's submit. */
    private static final boolean REST = "rest".equals(System.getProperty("bench.client"));
    private static final int CYCLES = 5;

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.backend", () -> "slurm");
        registry.add("paddlejobs.slurm.shared-dir", sharedDir::toString);
        registry.add("paddlejobs.slurm.slurm-conf", () -> SlurmCluster.current().slurmConf());
        registry.add("paddlejobs.slurm.bin-dir", () -> SlurmCluster.current().binDir());
        registry.add("logging.level.root", () -> "WARN");
        if (REST) {
            SlurmCluster.serveRest(registry);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    JobService jobService;

    @Autowired
    JobHistory history;

    @Test
    void measure() throws Exception {
        SlurmCluster.Running cluster = SlurmCluster.current();
        ServiceClient api = new ServiceClient(port);
        SlurmCli cli = new SlurmCli(cluster.slurmConf(), cluster.binDir());
        SlurmRest rest = SlurmRest.of(new Binder(new MapConfigurationPropertySource(Map.of(
                "paddlejobs.slurm.rest-url", cluster.restUrl(), "paddlejobs.slurm.jwt-key", cluster.jwtKey(),
                "paddlejobs.slurm.rest-user", "root", "paddlejobs.slurm.replica-path", "/usr/bin:/bin")))
                .bindOrCreate("paddlejobs.slurm", SlurmProperties.class));
        Path work = Files.createDirectories(sharedDir.resolve("direct"));
        // The shape the service submits for one pserver and one trainer: two components of one task.
        BatchJob direct = new BatchJob("direct", work, work.resolve("out.log"),
                List.of(new BatchJob.Component(1, 1, 256, 0), new BatchJob.Component(1, 1, 256, 0)), 0, 0, SlurmChoices.DEFAULTS,
                "true\n");

        // The JIT compilers would otherwise take the two cores' time from the first hundreds of requests.
        for (int i = 0; i < WARM_UP; i++) {
            api.send("POST", "/jobs?dry_run=true", SlurmJobsApiTest.job("warm-" + i, "true"));
            api.send("GET", "/jobs?namespace=" + NAMESPACE, null);
        }
        for (int i = 0; i < WARM_UP / 20; i++) {
            api.send("POST", "/jobs", SlurmJobsApiTest.job("warm-" + i, "true"));
            cli.submit(direct);
        }
        List<Long> service = new ArrayList<>();
        List<Long> sbatch = new ArrayList<>();
        List<Long> restSubmit = new ArrayList<>();
        List<Long> dryRun = new ArrayList<>();
        List<Long> jobFiles = new ArrayList<>();
        List<Long> historyRow = new ArrayList<>();
        long[] ids = new long[1];
        for (int i = 0; i < ROUNDS; i++) {
            int n = i;
            service.add(nanos(() -> api.send("POST", "/jobs", SlurmJobsApiTest.job("bench-" + n, "true"))));
            sbatch.add(nanos(() -> ids[0] = cli.submit(direct)));
            restSubmit.add(nanos(() -> rest.submit(direct)));
            dryRun.add(nanos(() -> api.send("POST", "/jobs?dry_run=true", SlurmJobsApiTest.job("floor-" + n, "true"))));
            JobPlan plan = jobService.dryRun(JobRequests.spec("name=floor-" + n + " num_cpus=1 pservers=1 memory=256Mi")
                    .entryPoint("true").build(), NAMESPACE).plan();
            JobFiles files = new JobFiles(Files.createDirectories(sharedDir.resolve("floor")).toRealPath(), new JobKey(NAMESPACE, plan.name()));
            jobFiles.add(nanos(() -> files.prepare(plan)));
            historyRow.add(nanos(() -> history.submitted(plan)));
            history.delete(new JobKey(NAMESPACE, plan.name()));
        }
        report("submit", service, sbatch, restSubmit);
        List<Long> slurm = REST ? restSubmit : sbatch;
        String submitter = REST ? "slurmrestd" : "sbatch";
        double floor = median(dryRun) + median(jobFiles) + median(historyRow) + median(slurm);
        System.out.printf("[slurm-bench] submit floor (client %s), median of %d (ms): HTTP request as a dry run %.1f + the"
                + " job's files %.1f + its history row %.1f + %s %.1f = %.1f; the service's submit is %.2fx %s and %.2fx the"
                + " floor%n", REST ? "rest" : "cli", ROUNDS, median(dryRun), median(jobFiles), median(historyRow), submitter,
                median(slurm), floor, median(service) / median(slurm), submitter, median(service) / floor);

        List<Long> serviceRead = new ArrayList<>();
        List<Long> scontrol = new ArrayList<>();
        List<Long> restRead = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String token = new JsonWebTokens(Files.readAllBytes(Path.of(cluster.jwtKey())), "root").current();
        for (int i = 0; i < ROUNDS; i++) {
            int n = i;
            serviceRead.add(nanos(() -> api.send("GET", "/jobs/bench-" + n + "/status", null)));
            scontrol.add(nanos(() -> cluster.command("scontrol", "-o", "show", "job", Long.toString(ids[0]))));
            restRead.add(nanos(() -> send(http, HttpRequest.newBuilder(URI.create(cluster.restUrl()
                    + "/slurm/" + rest.version() + "/job/" + ids[0])).header("X-SLURM-USER-NAME", "root")
                    .header("X-SLURM-USER-TOKEN", token).build())));
        }
        report("status read", serviceRead, scontrol, restRead);
        // The jobs write into the temporary directory until they end; it is removed after this.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(120))
                .until(() -> cluster.command("squeue", "-h", "-t", "PD,R,CG").isBlank());
        // The service goes on polling after this test: its jobs and their records leave the directory now.
        for (int i = 0; i < ROUNDS; i++) {
            api.send("DELETE", "/jobs/bench-" + i, null);
        }
        for (int i = 0; i < WARM_UP / 20; i++) {
            api.send("DELETE", "/jobs/warm-" + i, null);
        }
    }

    /** Further clusters beside the suite's, each started, then stopped: what every Slurm test run pays once. */
    @Test
    void clusterStartAndStop() {
        List<Long> starts = new ArrayList<>();
        List<Long> stops = new ArrayList<>();
        for (int i = 0; i < CYCLES; i++) {
            SlurmCluster.Running cluster = SlurmCluster.Running.start();
            starts.add(cluster.startMillis * 1_000_000);
            cluster.close();
            stops.add(cluster.stopMillis() * 1_000_000);
        }
        System.out.printf("[slurm-bench] test cluster (4 nodes and slurmrestd), median of %d (ms): start %.0f"
                + " (min %.0f, max %.0f), stop %.0f (min %.0f, max %.0f)%n", CYCLES, median(starts),
                starts.stream().mapToLong(Long::longValue).min().orElseThrow() / 1e6,
                starts.stream().mapToLong(Long::longValue).max().orElseThrow() / 1e6, median(stops),
                stops.stream().mapToLong(Long::longValue).min().orElseThrow() / 1e6,
                stops.stream().mapToLong(Long::longValue).max().orElseThrow() / 1e6);
    }

    private static Object send(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long nanos(Supplier<Object> call) {
        long t0 = System.nanoTime();
        call.get();
        return System.nanoTime() - t0;
    }

    private static long nanos(Runnable call) {
        return nanos(() -> {
            call.run();
            return null;
        });
    }

    private static void report(String what, List<Long> service, List<Long> cli, List<Long> rest) {
        System.out.printf("[slurm-bench] %s, median of %d (ms): through the service %.1f, sbatch/scontrol %.1f,"
                + " slurmrestd %.1f%n", what, ROUNDS, median(service), median(cli), median(rest));
    }

    private static double median(List<Long> nanos) {
        List<Long> sorted = nanos.stream().sorted().toList();
        return sorted.get(sorted.size() / 2) / 1e6;
    }
}
