package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static io.paddlejobs.backend.kubernetes.BenchmarkClients.timed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.bench.Figures;
import io.paddlejobs.bench.HeapHistogram;
import io.paddlejobs.cluster.ApiServerRequests;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.FakeNodes;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.planning.LabelKeys;
import io.paddlejobs.testing.Settings;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Thousands of jobs through one service on the real control plane, each living its life on kwok's
 * nodes (trainers succeed after 2 s: kwok-stages.yaml), against the same objects created, and
 * followed, by fabric8 directly in a namespace the service does not serve; while 50 clients read
 * statuses and 200 status streams are open. The service runs in this JVM: its heap is read by the
 * MemoryMXBean after full collections. Run with
 * {@code ./mvnw -B test -Dtest=RealClusterScaleBenchmark -DexcludedGroups=none -Dcluster.required=true -Dbench.jobs=200}.
 */
@Tag("benchmark")
@Tag("cluster")
@ExtendWith(RealCluster.class)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes", "logging.level.root=WARN",
        // fabric8's own default, which the direct creates have: on a crowded machine the shipped 3 s is exceeded.
        "paddlejobs.kubernetes.request-timeout=10s",
        // kwok's nodes have no kubelet to serve logs: following the trainers' metrics only fills the log.
        "logging.level.io.paddlejobs.metrics.TrainerFollower=ERROR"})
class RealClusterScaleBenchmark {

    static final int JOBS = Integer.getInteger("bench.jobs", 2000);
    static final int NODES = Integer.getInteger("bench.nodes", nodesFor(JOBS));
    static final int CLIENTS = 8;
    static final int READERS = 50;
    /** Readers of each of the two floors a status read is set against: a static file, and the API server's GET. */
    static final int FLOOR_READERS = 10;
    private static final String STATIC_FILE = "/page/favicon.svg";
    static final int STREAMS = 200;
    /** The streams watch this many jobs, whose trainers run until the run ends them, so that each stream sees a change. */
    static final int STREAMED_JOBS = 20;
    static final int BLOCKS = 4;
    /** Each reader's pace: one status read this often (50 readers: 250 reads/s). */
    static final long READ_EVERY_MS = Long.getLong("bench.readEveryMs", 200);
    /** Jobs per side in the windows that count the API server's requests. */
    static final int COUNTED = Integer.getInteger("bench.counted", Math.max(20, Math.min(200, JOBS / 10)));
    private static final String JOB = """
            {"name": "%s", "entry_point": "python train.py", "num_cpus": 2%s}""";
    private static final Set<String> READ_VERBS = Set.of("GET", "LIST");
    private static final Pattern NAME = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"");

    private static ControlPlane plane;
    private static String ns;
    private static String directNs;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<String> submitted = Collections.synchronizedList(new ArrayList<>());
    private final List<String> createdDirectly = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Long> succeededSeen = new ConcurrentHashMap<>();
    private final Map<String, Long> succeededSeenAt = new ConcurrentHashMap<>();
    /** What status readers pick from: the streamed jobs from the start, then every job submitted. */
    private final List<String> readable = Collections.synchronizedList(new ArrayList<>());
    /** When the run ended each streamed job's trainers. */
    private final Map<String, Long> streamedEnded = new ConcurrentHashMap<>();
    /** Submits answered 503 (then retried). */
    private final AtomicInteger unavailable = new AtomicInteger();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        plane = RealCluster.plane();
        ns = RealBackends.namespace(plane, "scale");
        directNs = RealBackends.namespace(plane, "scale-direct");
        RealClusterBenchmark.serviceAsAdmin(plane);
        registry.add("paddlejobs.kubernetes.master-url", plane::masterUrl);
        registry.add("paddlejobs.kubernetes.namespaces", () -> ns);
    }

    @AfterAll
    static void forgetTheClientProperties() {
        RealClusterBenchmark.forgetTheClientProperties();
    }

    @Test
    void measure() throws Exception {
        Figures figures = new Figures("At scale on the real control plane: " + JOBS + " jobs, " + NODES + " kwok nodes of 64 CPUs");
        FakeNodes.addMany(plane.admin(), "scale-node-", NODES, 64, "256Gi");
        ExecutorService background = Executors.newCachedThreadPool();
        int pservers = Plans.plan(Plans.request("any", 2), directNs).pservers().count();
        try (PodClock clock = new PodClock(plane.admin(), ns, 0);
             PodClock directClock = new PodClock(plane.admin(), directNs, pservers)) {
            background.submit(() -> watchSucceeded());
            for (int i = 0; i < 300; i++) {
                expect(200, post("/jobs?dry_run=true&namespace=" + ns, "warm-" + i, ""));
            }
            long heapBefore = heapAfterGc();
            List<StatusStream> streams = openStreams(background);
            List<Long> reads = Collections.synchronizedList(new ArrayList<>());
            List<Long> staticReads = Collections.synchronizedList(new ArrayList<>());
            List<Long> apiReads = Collections.synchronizedList(new ArrayList<>());
            ScheduledExecutorService readers = Executors.newScheduledThreadPool(READERS + 2 * FLOOR_READERS);
            every(readers, READERS, () -> readStatus(reads));
            every(readers, FLOOR_READERS, () -> readStaticFile(staticReads));
            every(readers, FLOOR_READERS, () -> readTrainerJob(apiReads));

            List<Long> viaService = Collections.synchronizedList(new ArrayList<>());
            List<Long> viaFabric8 = Collections.synchronizedList(new ArrayList<>());
            int each = Math.max(1, JOBS / 2 / BLOCKS / CLIENTS);
            double serviceSeconds = 0;
            double fabric8Seconds = 0;
            for (int block = 0; block < BLOCKS; block++) {
                String round = block + "-";
                serviceSeconds += seconds(each, (c, i) -> viaService.add(timed(() -> submit("s" + round + c + "-" + i))));
                fabric8Seconds += seconds(each, (c, i) -> viaFabric8.add(timed(() -> directCreates("d" + round + c + "-" + i))));
                endStreamedJobs(block);
            }
            int perSide = BLOCKS * each * CLIENTS;
            // Both sides' jobs share the cluster: on the 2-core machine its controllers and kwok finish some 2 jobs a second.
            Duration deadline = Duration.ofSeconds(Math.max(300, 2L * perSide));
            awaitFinished(clock, deadline);
            readers.shutdown();
            assertThat(readers.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            await().atMost(Duration.ofMinutes(1)).until(() -> streams.stream().allMatch(s -> s.endSeen().isPresent()));

            figures.latency("POST /jobs, " + CLIENTS + " clients, during the run", viaService);
            figures.latency("the same creates by fabric8, " + CLIENTS + " threads", viaFabric8);
            figures.count("  of them answered 503 first, then retried", unavailable.get(), "0");
            figures.rate("POST /jobs, " + CLIENTS + " clients", perSide / serviceSeconds);
            figures.rate("fabric8, " + CLIENTS + " threads", perSide / fabric8Seconds);
            figures.ratio("submits/s, 8 clients / fabric8 8 threads", fabric8Seconds / serviceSeconds, ">= 0.9");
            figures.ratio("submit p99 / fabric8 p99", Figures.p(viaService, 99) / Figures.p(viaFabric8, 99), "<= 1.3");
            List<Long> succeededLag = new ArrayList<>();
            List<Long> pserverLag = new ArrayList<>();
            for (String job : submitted) {
                long done = clock.trainersDone(job).orElseThrow();
                // finishedAt is to the second and cut, not rounded: the lag read from it is up to 1 s too long.
                succeededLag.add(TimeUnit.MILLISECONDS.toNanos(succeededSeenAt.get(job) - clock.trainersFinishedAt(job).orElseThrow()));
                pserverLag.add(clock.pserversGone(job).orElseThrow() - done);
            }
            figures.latency("last trainer's finishedAt -> watch event Succeeded (+0..1 s)", succeededLag);
            figures.value("  p99", Figures.p(succeededLag, 99), "ms", "<= 2000");
            figures.latency("trainer pod Succeeded -> its pservers deleted", pserverLag);
            figures.latency("GET /jobs/{name}/status, " + READERS + " clients, during the run", reads);
            figures.value("  p99", Figures.p(reads, 99), "ms", "<= 20");
            figures.latency("GET " + STATIC_FILE + " (the service's smallest answer), " + FLOOR_READERS + " clients", staticReads);
            figures.latency("GET of the trainer Job from the API server by fabric8, " + FLOOR_READERS + " clients", apiReads);
            figures.ratio("status read p99 / static file p99, same service, same run", Figures.p(reads, 99) / Figures.p(staticReads, 99), "<= 1.2");
            figures.ratio("status read p99 / the API server's GET p99", Figures.p(reads, 99) / Figures.p(apiReads, 99), "<= 1");
            List<Long> streamLag = new ArrayList<>();
            streams.forEach(s -> streamLag.add(s.endSeen().orElseThrow() - streamedEnded.get(s.job())));
            figures.latency(STREAMS + " status streams: trainers' exit -> end event", streamLag);
            streams.forEach(StatusStream::close);

            long cached = submitted.size() + STREAMED_JOBS;
            double perJob = (heapAfterGc() - heapBefore) / (double) cached / 1024;
            figures.value("heap per cached job (" + cached + " jobs, MemoryMXBean after System.gc())", perJob, "KiB", "<= 16");

            // The reads' window must see no job change: the direct side's last pservers are gone first.
            await().atMost(deadline).pollInterval(Duration.ofSeconds(1))
                    .until(() -> List.copyOf(createdDirectly).stream().allMatch(directClock::done));
            readsCostNothing(figures);
            requestsPerJob(figures, clock, directClock);
            replicaCachePerJob(figures);
        } finally {
            background.shutdownNow();
            figures.print();
        }
    }

    /**
     * Enough kwok nodes of 64 CPUs for every job's pods at once, and a quarter more: the jobs are submitted in a few
     * minutes, and a job's pservers outlive its trainers until they are stopped. With fewer, the run measures pods
     * waiting for room (at 2,000 jobs on 50 nodes, 1,400 pods were pending and jobs finished at 20 a minute).
     */
    private static int nodesFor(int jobs) {
        var manifests = Manifests.desired(Plans.plan(Plans.request("any", 2), "any"), Settings.defaults(KubernetesProperties.class));
        double cpusPerJob = Stream.of(manifests.trainerJob(), manifests.pserverJob())
                .mapToDouble(job -> job.getSpec().getParallelism() * job.getSpec().getTemplate().getSpec().getContainers().stream()
                        .mapToDouble(c -> Quantity.getAmountInBytes(c.getResources().getRequests().get("cpu")).doubleValue()).sum())
                .sum();
        return Math.max(50, (int) Math.ceil((jobs + STREAMED_JOBS) * cpusPerJob * 1.25 / 64));
    }

    /** Status and list reads, with no job changing: every one is served from the informers' cache. */
    private void readsCostNothing(Figures figures) throws Exception {
        ApiServerRequests before = ApiServerRequests.read(plane);
        int n = 500;
        for (int i = 0; i < n; i++) {
            expect(200, get("/jobs/" + submitted.get(i % submitted.size()) + "/status?namespace=" + ns));
            expect(200, get("/jobs?limit=50&namespace=" + ns));
        }
        ApiServerRequests window = ApiServerRequests.read(plane).since(before);
        // In its namespace or of one object: a controller's relist in the window (cluster-wide) is not the service's.
        long reads = window.of(READ_VERBS, Set.of("jobs", "pods", "services", "events", "configmaps", "statefulsets"),
                Set.of("namespace", "resource"));
        figures.count("API reads of job objects for " + 2 * n + " status and list reads", reads, "0");
        figures.note("  everything the API server served in that window: " + window.byVerbAndResource());
        assertThat(reads).isZero();
    }

    /**
     * The service's cost to the API server per job: {@link #COUNTED} jobs by fabric8, followed to their
     * end as the service follows them (the pserver Job and Service deleted once the trainer Job is
     * complete), then as many through the service; what the controllers, the scheduler and kwok do
     * for a job is in both windows, so the difference is what the service does beyond the creates
     * and deletes of the floor.
     */
    private void requestsPerJob(Figures figures, PodClock clock, PodClock directClock) throws Exception {
        List<String> direct = new ArrayList<>();
        ApiServerRequests start = ApiServerRequests.read(plane);
        for (int i = 0; i < COUNTED; i++) {
            direct.add("cd" + i);
        }
        seconds(COUNTED / CLIENTS, (c, i) -> directCreates("cd" + (c * (COUNTED / CLIENTS) + i)));
        List<String> directDone = direct.subList(0, COUNTED / CLIENTS * CLIENTS);
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> directDone.stream().allMatch(directClock::done));
        ApiServerRequests middle = ApiServerRequests.read(plane);
        submitted.clear();
        seconds(COUNTED / CLIENTS, (c, i) -> submit("cs" + c + "-" + i));
        awaitFinished(clock, Duration.ofMinutes(5));
        ApiServerRequests byDirect = middle.since(start);
        ApiServerRequests byService = ApiServerRequests.read(plane).since(middle);
        int jobs = directDone.size();
        int creates = Manifests.desired(Plans.plan(Plans.request("floor", 2), ns), Settings.defaults(KubernetesProperties.class))
                .owned().size() + 1;
        int floor = creates + 2;
        double extra = (byService.total() - byDirect.total()) / (double) jobs;
        figures.value("API requests per job by the service beyond the floor (" + jobs + " jobs a side)", extra, "", "0");
        figures.ratio("API requests per job / floor (" + creates + " creates + 2 deletes)", (floor + extra) / floor, "<= 1.5");
        figures.note("  fabric8 window, all clients: " + byDirect.byVerbAndResource());
        figures.note("  service window, all clients: " + byService.byVerbAndResource());
    }

    /** Until every job submitted is seen Succeeded and its pservers gone; else says how many are not, and which way. */
    private void awaitFinished(PodClock clock, Duration deadline) {
        long[] lastSaid = {System.nanoTime()};
        try {
            await().atMost(deadline).pollInterval(Duration.ofSeconds(1))
                    .conditionEvaluationListener(condition -> {
                        if (System.nanoTime() - lastSaid[0] > TimeUnit.MINUTES.toNanos(1)) {
                            lastSaid[0] = System.nanoTime();
                            System.out.println("waiting: " + unfinished(clock));
                        }
                    })
                    .until(() -> submitted.stream().allMatch(job -> succeededSeen.containsKey(job) && clock.done(job)));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("after " + deadline + ", " + unfinished(clock), e);
        }
    }

    private String unfinished(PodClock clock) {
        List<String> jobs = List.copyOf(submitted);
        return "of %d jobs: %d not seen Succeeded, %d with trainers not seen done, %d with pservers left".formatted(jobs.size(),
                jobs.stream().filter(j -> !succeededSeen.containsKey(j)).count(),
                jobs.stream().filter(j -> clock.trainersDone(j).isEmpty()).count(),
                jobs.stream().filter(j -> clock.pserversGone(j).isEmpty()).count());
    }

    /** {@code count} readers, each running {@code read} every {@link #READ_EVERY_MS}, spread over that period. */
    private static void every(ScheduledExecutorService readers, int count, Runnable read) {
        for (int r = 0; r < count; r++) {
            readers.scheduleAtFixedRate(read, r * READ_EVERY_MS / count, READ_EVERY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The floor under a status read in this run: a static file, answered by the same JVM through the same filters
     * with nothing of a job in it, as loaded as the status reads beside it.
     */
    private void readStaticFile(List<Long> reads) {
        try {
            reads.add(timed(() -> expect(200, get(STATIC_FILE))));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a user reads instead of a status: a job's trainer Job, from the API server. */
    private void readTrainerJob(List<Long> reads) {
        String job = readable.get(ThreadLocalRandom.current().nextInt(readable.size()));
        try {
            reads.add(timed(() -> plane.admin().batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob(job)).get()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One client's read of a job's status, at random among those there. */
    private void readStatus(List<Long> reads) {
        String job = readable.get(ThreadLocalRandom.current().nextInt(readable.size()));
        try {
            reads.add(timed(() -> expect(200, get("/jobs/" + job + "/status?namespace=" + ns))));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The list's watch, for Succeeded jobs: when the service reported each. */
    private Void watchSucceeded() throws Exception {
        var response = http.send(HttpRequest.newBuilder(URI.create(url("/jobs?watch=true&phase=Succeeded&namespace=" + ns)))
                .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
        String[] event = {""};
        response.body().forEach(line -> {
            if (line.startsWith("event:")) {
                event[0] = line.substring("event:".length()).strip();
            } else if (line.startsWith("data:") && event[0].equals("job")) {
                // Only a job line says Succeeded: "deleted" also names every job that does not (yet) match the filter.
                Matcher name = NAME.matcher(line);
                if (name.find()) {
                    succeededSeen.putIfAbsent(name.group(1), System.nanoTime());
                    succeededSeenAt.putIfAbsent(name.group(1), System.currentTimeMillis());
                }
            }
        });
        return null;
    }

    private List<StatusStream> openStreams(ExecutorService background) throws Exception {
        String keepRunning = ", \"labels\": {\"%s\": \"%s\"}".formatted(
                FakeKubelet.trainersKeepRunning().keySet().iterator().next(), FakeKubelet.trainersKeepRunning().values().iterator().next());
        for (int j = 0; j < STREAMED_JOBS; j++) {
            expect(201, post("/jobs?namespace=" + ns, "streamed-" + j, keepRunning));
            readable.add("streamed-" + j);
        }
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> plane.admin().pods().inNamespace(ns).withLabel(LabelKeys.ROLE, "trainer").list().getItems().stream()
                        .filter(p -> "Running".equals(p.getStatus().getPhase())).count() >= 2L * STREAMED_JOBS);
        List<StatusStream> streams = new ArrayList<>();
        for (int s = 0; s < STREAMS; s++) {
            String job = "streamed-" + s % STREAMED_JOBS;
            streams.add(StatusStream.open(http, url("/jobs/" + job + "/status?namespace=" + ns), job, background));
        }
        await().atMost(Duration.ofMinutes(1)).until(() -> streams.stream().allMatch(StatusStream::opened));
        return streams;
    }

    /** Ends the trainers of this block's share of the streamed jobs, noting the moment on each of their streams. */
    private void endStreamedJobs(int block) {
        for (int j = block * STREAMED_JOBS / BLOCKS; j < (block + 1) * STREAMED_JOBS / BLOCKS; j++) {
            String job = "streamed-" + j;
            long at = System.nanoTime();
            for (Pod pod : plane.admin().pods().inNamespace(ns).withLabel(LabelKeys.NAME, job)
                    .withLabel(LabelKeys.ROLE, "trainer").list().getItems()) {
                FakeKubelet.exit(plane.admin(), pod, 0);
            }
            streamedEnded.put(job, at);
        }
    }

    /**
     * What a replica's caches hold per job, apart from what a service holds whatever its jobs (Tomcat's buffers,
     * the readers' samples): the live heap a second backend takes once its informers synced over this run's jobs,
     * less what one takes over an empty namespace, each from class histograms after full collections; with the
     * classes that grew most, per job.
     */
    private void replicaCachePerJob(Figures figures) throws Exception {
        int jobs = plane.admin().batch().v1().jobs().inNamespace(ns).withLabel(LabelKeys.ROLE, "trainer").list()
                .getItems().size();
        HeapHistogram[] overNone = heldByAReplicaOf(RealBackends.namespace(plane, "scale-empty"));
        HeapHistogram[] overJobs = heldByAReplicaOf(ns);
        long perReplica = overNone[1].totalBytes() - overNone[0].totalBytes();
        figures.value("heap per cached job, a second replica's caches (" + jobs + " jobs, less an empty namespace's)",
                (overJobs[1].totalBytes() - overJobs[0].totalBytes() - perReplica) / (double) jobs / 1024, "KiB", "<= 16");
        figures.heldBy(overJobs[0], overJobs[1], 15, jobs, "job");
    }

    /** This JVM's live objects before a second backend starts over the namespace, and once its informers synced. */
    private static HeapHistogram[] heldByAReplicaOf(String namespace) throws Exception {
        long pid = ProcessHandle.current().pid();
        HeapHistogram before = HeapHistogram.of(pid);
        try (var replica = RealBackends.startSynced(plane, plane.adminToken(), MockCluster.settings(List.of(namespace)))) {
            return new HeapHistogram[] {before, HeapHistogram.of(pid)};
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private double seconds(int each, BenchmarkClients.Work work) throws Exception {
        return BenchmarkClients.seconds(CLIENTS, each, work);
    }

    /** Submits, once more at once where the service answers 503 (the API server too slow), as a client would. */
    private void submit(String name) throws Exception {
        HttpResponse<String> response = post("/jobs?namespace=" + ns, name, "");
        for (int retry = 0; retry < 3 && response.statusCode() == 503; retry++) {
            unavailable.incrementAndGet();
            response = post("/jobs?namespace=" + ns, name, "");
        }
        expect(201, response);
        submitted.add(name);
        readable.add(name);
    }

    /** The objects the service would create, created one after another as a plain client would. */
    private void directCreates(String name) {
        var manifests = Manifests.desired(Plans.plan(Plans.request(name, 2), directNs), Settings.defaults(KubernetesProperties.class));
        var job = plane.admin().resource(manifests.trainerJob()).create();
        for (HasMetadata owned : manifests.owned()) {
            plane.admin().resource(Manifests.ownedBy(job, owned)).create();
        }
        createdDirectly.add(name);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    private HttpResponse<String> post(String path, String name, String more) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JOB.formatted(name, more))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void expect(int status, HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    }
}
