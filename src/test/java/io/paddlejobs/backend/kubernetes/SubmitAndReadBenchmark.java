package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static io.paddlejobs.backend.kubernetes.BenchmarkClients.timed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.bench.Figures;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.testing.Settings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The submit and read targets, measured side by side in one run: the service against the
 * same API calls made directly by fabric8, alternating so that both see the same load and the
 * same store size. Printed as ratios; subclasses say which API server.
 */
abstract class SubmitAndReadBenchmark {

    static final int WARMUP = Integer.getInteger("benchmark.warmup", 50);
    static final int ROUNDS = Integer.getInteger("benchmark.rounds", 200);
    /**
     * Rounds that create nothing, run before the others: until the JIT has compiled the web layer,
     * a request costs several times what it does later (measured: a dry run p50 20 ms after 20
     * rounds, 8 ms after 400), and creates cannot warm it without filling the API server.
     */
    static final int QUIET_WARMUP = Integer.getInteger("benchmark.quietWarmup", 1000);
    static final int CLIENTS = 8;
    private static final String JOB = """
            {"name": "%s", "entry_point": "python train.py", "num_cpus": 2}""";

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    private final HttpClient http = HttpClient.newHttpClient();

    /** Where to create jobs; its data claim exists. */
    abstract String namespace();

    /** Where the job that is read lives, alone; its data claim exists. */
    abstract String readNamespace();

    /** A client with rights to create the job's objects directly. */
    abstract KubernetesClient direct();

    /**
     * How many reads (GETs, events aside) the API server has served about {@code namespace}, or -1
     * when it cannot say. Events are left out: the reconciler lists them now and then for a job
     * that is pending for no reason its pods give, which the job read here is (no kubelet).
     */
    abstract long requestsAbout(String namespace);

    abstract String where();

    @Test
    void measure() throws Exception {
        Figures figures = new Figures("Kubernetes backend, " + where());
        try {
            submitLatency(figures);
            submitThroughput(figures);
            reads(figures);
        } finally {
            figures.print();
        }
    }

    /**
     * Besides the two the targets compare, two that split the service's time: the backend's own
     * submit (no HTTP: the plan's objects, the trainer Job, then the rest side by side), and a dry
     * run through HTTP (the web layer, the checks and the plan, no API call).
     */
    private void submitLatency(Figures figures) throws Exception {
        List<Long> service = new ArrayList<>();
        List<Long> fabric8 = new ArrayList<>();
        List<Long> backendAlone = new ArrayList<>();
        List<Long> dryRun = new ArrayList<>();
        for (int i = 0; i < QUIET_WARMUP; i++) {
            expect(200, post("/jobs?dry_run=true&namespace=" + namespace(), "warm-" + i));
        }
        for (int i = 0; i < WARMUP + ROUNDS; i++) {
            int n = i;
            long viaService = timed(() -> submit("svc-" + n));
            long viaFabric8 = timed(() -> directCreates("direct-" + n));
            long viaBackend = timed(() -> backend.submit(Plans.plan(Plans.request("backend-" + n, 2), namespace())));
            long dry = timed(() -> expect(200, post("/jobs?dry_run=true&namespace=" + namespace(), "dry-" + n)));
            if (i >= WARMUP) {
                service.add(viaService);
                fabric8.add(viaFabric8);
                backendAlone.add(viaBackend);
                dryRun.add(dry);
            }
        }
        figures.latency("POST /jobs", service);
        figures.latency("the same creates, one after another, by fabric8", fabric8);
        figures.latency("  backend submit alone (no HTTP)", backendAlone);
        figures.latency("  POST /jobs?dry_run=true (no API call)", dryRun);
        figures.ratio("submit p50 / fabric8 sequential p50", Figures.p(service, 50) / Figures.p(fabric8, 50), "<= 1.0");
        figures.ratio("submit p99 / fabric8 sequential p99", Figures.p(service, 99) / Figures.p(fabric8, 99), "<= 1.3");
        figures.ratio("  backend submit alone p50 / fabric8 sequential p50",
                Figures.p(backendAlone, 50) / Figures.p(fabric8, 50), "< 1.0: side by side beats the sequence");
    }

    /**
     * In blocks that alternate, so that a machine that slows down (other work, a store that grows)
     * slows both sides alike.
     */
    private void submitThroughput(Figures figures) throws Exception {
        int blocks = 4;
        int each = Math.max(1, ROUNDS / CLIENTS / blocks);
        double serviceSeconds = 0;
        double fabric8Seconds = 0;
        for (int block = 0; block < blocks; block++) {
            String round = block + "-";
            serviceSeconds += seconds(each, (client, i) -> submit("par-svc-" + round + client + "-" + i));
            fabric8Seconds += seconds(each, (client, i) -> directCreates("par-direct-" + round + client + "-" + i));
        }
        double service = blocks * each * CLIENTS / serviceSeconds;
        double fabric8 = blocks * each * CLIENTS / fabric8Seconds;
        figures.rate("POST /jobs, " + CLIENTS + " clients", service);
        figures.rate("fabric8, " + CLIENTS + " threads", fabric8);
        figures.ratio("submits/s, 8 clients / fabric8 8 threads", service / fabric8, ">= 0.9");
    }

    private void reads(Figures figures) throws Exception {
        String ns = readNamespace();
        submit("counted", ns);
        JobKey key = new JobKey(ns, "counted");
        await().atMost(Duration.ofSeconds(60)).until(() -> backend.find(key).isPresent());
        List<Long> status = new ArrayList<>();
        List<Long> direct = new ArrayList<>();
        List<Long> list = new ArrayList<>();
        long before = requestsAbout(ns);
        for (int i = 0; i < QUIET_WARMUP + ROUNDS; i++) {
            long read = timed(() -> expect(200, get("/jobs/counted/status?namespace=" + ns)));
            long get = timed(() -> assertThat(direct().batch().v1().jobs().inNamespace(ns)
                    .withName(ObjectNames.trainerJob("counted")).get()).isNotNull());
            long listed = timed(() -> expect(200, get("/jobs?limit=50&namespace=" + ns)));
            if (i >= QUIET_WARMUP) {
                status.add(read);
                direct.add(get);
                list.add(listed);
            }
        }
        long calls = requestsAbout(ns) - before - (QUIET_WARMUP + ROUNDS); // less the direct GETs
        figures.latency("GET /jobs/{name}/status", status);
        figures.latency("GET of the trainer Job by fabric8", direct);
        figures.latency("GET /jobs?limit=50 (" + backend.list(ns).size() + " jobs)", list);
        figures.ratio("status read p50 / direct GET p50", Figures.p(status, 50) / Figures.p(direct, 50), "<= 0.5");
        if (before >= 0) {
            figures.count("API calls in the namespace for " + 2 * (QUIET_WARMUP + ROUNDS) + " status and list reads", calls, "0");
            assertThat(calls).isZero();
        }
    }

    private double seconds(int each, BenchmarkClients.Work work) throws Exception {
        return BenchmarkClients.seconds(CLIENTS, each, work);
    }

    private void submit(String name) throws Exception {
        submit(name, namespace());
    }

    private void submit(String name, String namespace) throws Exception {
        expect(201, post("/jobs?namespace=" + namespace, name));
    }

    private HttpResponse<String> post(String path, String name) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(JOB.formatted(name)))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The objects the service would create, created one after another as a plain client would. */
    private void directCreates(String name) {
        var manifests = Manifests.desired(Plans.plan(Plans.request(name, 2), namespace()), Settings.defaults(KubernetesProperties.class));
        var job = direct().resource(manifests.trainerJob()).create();
        for (HasMetadata owned : manifests.owned()) {
            direct().resource(Manifests.ownedBy(job, owned)).create();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void expect(int status, HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    }

}
