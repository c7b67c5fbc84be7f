package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What the service costs on top of the API calls it makes, against the mock API server.
 * Not part of the normal build (its name matches no test pattern, and it needs the flag):
 * {@code ./mvnw -B test -Dtest=KubernetesBenchmark -Dbenchmark=true}.
 */
@Tag("benchmark")
@EnabledIfSystemProperty(named = "benchmark", matches = "true")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes", "paddlejobs.kubernetes.request-timeout=30s", "logging.level.root=WARN"})
class KubernetesBenchmark {

    private static final MockCluster CLUSTER = new MockCluster();
    private static final int WARMUP = 100;
    private static final int ROUNDS = 400;
    private static final String JOB = """
            {"name": "%s", "entry_point": "python train.py", "num_cpus": 2}""";

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.kubernetes.master-url", CLUSTER::url);
        CLUSTER.provideDataClaim("default");
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.close();
    }

    @Test
    void submitAndStatusReadCosts() throws Exception {
        var settings = MockCluster.settings(CLUSTER.url(), List.of());
        try (KubernetesClient direct = KubernetesClients.create(settings)) {
            List<Long> viaService = new ArrayList<>();
            List<Long> viaFabric8 = new ArrayList<>();
            List<Long> viaBackend = new ArrayList<>();
            for (int i = 0; i < WARMUP + ROUNDS; i++) {
                // Alternate, so that all see the same machine load and the same store size.
                long service = timeSubmit("svc-" + i);
                long fabric8 = timeDirectCreates(direct, "direct-" + i, settings);
                long port = timeBackendSubmit("port-" + i);
                if (i >= WARMUP) {
                    viaService.add(service);
                    viaFabric8.add(fabric8);
                    viaBackend.add(port);
                }
            }
            List<Long> dryRuns = new ArrayList<>();
            for (int i = 0; i < WARMUP + ROUNDS; i++) {
                long start = System.nanoTime();
                assertThat(post("dry-" + i, "?dry_run=true").statusCode()).isEqualTo(200);
                if (i >= WARMUP) {
                    dryRuns.add(System.nanoTime() - start);
                }
            }
            report("POST /jobs via the service", viaService);
            report("POST /jobs?dry_run=true (web, planning, manifests)", dryRuns);
            report("JobBackend.submit (no HTTP, plan given)", viaBackend);
            report("the same 3 creates via fabric8", viaFabric8);
            System.out.printf("median ratio service/fabric8: %.2f%n", median(viaService) / median(viaFabric8));

            int before = CLUSTER.server.getRequestCount();
            assertThat(post("counted").statusCode()).isEqualTo(201);
            System.out.printf("API requests per submit: %d%n", CLUSTER.server.getRequestCount() - before);

            await().atMost(Duration.ofSeconds(30)).until(() -> backend.find(new JobKey("default", "counted")).isPresent());
            List<Long> statusReads = new ArrayList<>();
            List<Long> fabric8Gets = new ArrayList<>();
            int beforeReads = CLUSTER.server.getRequestCount();
            for (int i = 0; i < WARMUP + ROUNDS; i++) {
                long start = System.nanoTime();
                assertThat(get("/jobs/counted/status").statusCode()).isEqualTo(200);
                long read = System.nanoTime() - start;
                if (i >= WARMUP) {
                    statusReads.add(read);
                }
            }
            int readRequests = CLUSTER.server.getRequestCount() - beforeReads;
            for (int i = 0; i < WARMUP + ROUNDS; i++) {
                long start = System.nanoTime();
                assertThat(direct.batch().v1().jobs().inNamespace("default").withName("counted-trainer").get()).isNotNull();
                long read = System.nanoTime() - start;
                if (i >= WARMUP) {
                    fabric8Gets.add(read);
                }
            }
            System.out.printf("API requests during %d status reads: %d%n", WARMUP + ROUNDS, readRequests);
            report("GET /jobs/{name}/status via the service (cache)", statusReads);
            report("GET of the trainer Job via fabric8", fabric8Gets);
            assertThat(readRequests).isZero();
        }
    }

    private long timeSubmit(String name) throws Exception {
        long start = System.nanoTime();
        var response = post(name);
        long elapsed = System.nanoTime() - start;
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return elapsed;
    }

    /**
     * Heap held per job once the informers hold it: a trainer Job, a StatefulSet and one running
     * pod per role (pods made from the job's own templates), then also its recovered plan. The
     * mock server's CRUD store slows down with every object it holds, so the informers' first
     * list is served from prepared JSON instead (watches still go to the CRUD store). Measured as
     * the growth of the live heap from before the backend started, counting in the prepared JSON
     * (one byte a character, ASCII) that was held before and released once served.
     */
    @Test
    void heapPerJobInTheInformerCache() {
        int jobs = Integer.getInteger("benchmark.jobs", 10_000);
        try (MockCluster cluster = new MockCluster()) {
            long prepared = prepareLists(cluster, jobs);
            long before = liveHeap();
            var settings = MockCluster.settings(cluster.url(), List.of());
            var client = KubernetesClients.create(settings);
            var runtime = KubernetesRuntime.start(client, settings, Plans.POLICY, java.time.Clock.systemUTC());
            var cache = runtime.cache();
            var backend = runtime.jobs();
            await().atMost(Duration.ofMinutes(10)).until(cache::synced);
            long synced = liveHeap();
            assertThat(backend.list("bench")).hasSize(jobs);
            long listed = liveHeap();
            System.out.printf("heap per job in the informer caches: %.1f KiB%n",
                    (synced - before + prepared) / 1024.0 / jobs);
            System.out.printf("heap per job with its recovered plan: %.1f KiB (%d jobs)%n",
                    (listed - before + prepared) / 1024.0 / jobs, jobs);
            runtime.close();
            client.close();
        }
    }

    /** @return the characters of JSON the mock server holds until it has served the lists */
    private static long prepareLists(MockCluster cluster, int jobs) {
        var settings = KubernetesProperties.defaults();
        StringBuilder jobList = listStart("batch/v1", "JobList");
        StringBuilder podList = listStart("v1", "PodList");
        for (int i = 0; i < jobs; i++) {
            String name = "job-" + i;
            var manifests = Manifests.desired(Plans.plan(Plans.request(name, 1), "bench"), settings);
            var job = asStored(manifests.trainerJob(), i);
            append(jobList, 2 * i, job);
            append(jobList, 2 * i + 1, asStored(Manifests.ownedBy(job, manifests.pserverJob()), i));
            append(podList, 2 * i, asStored(pod(name, io.paddlejobs.planning.Role.PSERVER,
                    manifests.pserverJob().getSpec().getTemplate()), i));
            append(podList, 2 * i + 1, asStored(pod(name, io.paddlejobs.planning.Role.TRAINER,
                    manifests.trainerJob().getSpec().getTemplate()), i));
        }
        String query = "?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dpaddle-jobs&resourceVersion=0";
        long chars = 0;
        for (var list : Map.of("/apis/batch/v1/jobs", jobList, "/api/v1/pods", podList).entrySet()) {
            String json = list.getValue().append("]}").toString();
            list.getValue().setLength(0);
            list.getValue().trimToSize();
            chars += json.length();
            cluster.server.expect().get().withPath(list.getKey() + query).andReturn(200, json).once();
        }
        return chars;
    }

    private static StringBuilder listStart(String apiVersion, String kind) {
        return new StringBuilder("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind
                + "\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[");
    }

    private static void append(StringBuilder list, int index, HasMetadata object) {
        list.append(index == 0 ? "" : ",").append(io.fabric8.kubernetes.client.utils.Serialization.asJson(object));
    }

    /** As the API server returns objects: with a uid, a resource version and a creation time. */
    private static <T extends HasMetadata> T asStored(T object, int i) {
        object.getMetadata().setUid(java.util.UUID.randomUUID().toString());
        object.getMetadata().setResourceVersion(Integer.toString(i + 1));
        object.getMetadata().setCreationTimestamp(Pods.T0);
        return object;
    }

    private static io.fabric8.kubernetes.api.model.Pod pod(String job, io.paddlejobs.planning.Role role,
                                                           io.fabric8.kubernetes.api.model.PodTemplateSpec template) {
        var shape = Pods.running(Pods.of(job, role, 0));
        shape.getMetadata().setNamespace("bench");
        shape.getMetadata().getLabels().putAll(template.getMetadata().getLabels());
        shape.setSpec(template.getSpec());
        return shape;
    }

    private static long liveHeap() {
        var memory = java.lang.management.ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private long timeBackendSubmit(String name) {
        var plan = Plans.plan(Plans.request(name, 2), "default");
        long start = System.nanoTime();
        backend.submit(plan);
        return System.nanoTime() - start;
    }

    private static long timeDirectCreates(KubernetesClient client, String name, KubernetesProperties settings) {
        var manifests = Manifests.desired(Plans.plan(Plans.request(name, 2), "default"), settings);
        long start = System.nanoTime();
        var job = client.resource(manifests.trainerJob()).create();
        for (HasMetadata owned : manifests.owned()) {
            client.resource(Manifests.ownedBy(job, owned)).create();
        }
        return System.nanoTime() - start;
    }

    private HttpResponse<String> post(String name) throws IOException, InterruptedException {
        return post(name, "");
    }

    private HttpResponse<String> post(String name, String query) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jobs" + query))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JOB.formatted(name))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static double median(List<Long> nanos) {
        return percentile(nanos, 50);
    }

    static double percentile(List<Long> nanos, int p) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1_000_000.0;
    }

    static void report(String what, List<Long> nanos) {
        System.out.printf("%-50s median %7.2f ms   p99 %7.2f ms   (n=%d)%n", what, median(nanos), percentile(nanos, 99),
                nanos.size());
    }
}
