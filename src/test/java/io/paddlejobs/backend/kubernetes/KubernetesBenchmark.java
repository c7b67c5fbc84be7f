package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Heap per job in the informer caches, against the mock API server (the submit and read costs
 * are {@link MockServerBenchmark}'s). Not part of the normal build (the {@code benchmark} tag):
 * {@code ./mvnw -B test -Dtest=KubernetesBenchmark -DexcludedGroups=none}.
 */
@Tag("benchmark")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes", "paddlejobs.kubernetes.request-timeout=30s", "logging.level.root=WARN"})
class KubernetesBenchmark {

    private static final MockCluster CLUSTER = new MockCluster();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.kubernetes.master-url", CLUSTER::url);
        CLUSTER.provideDataClaim("default");
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.close();
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
            var settings = MockCluster.settings(List.of());
            var client = KubernetesClientFactory.create(MockCluster.connection(cluster.url()));
            var runtime = KubernetesRuntime.start(client, settings, Plans.PLANNER, java.time.Clock.systemUTC());
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
        var settings = Settings.defaults(KubernetesProperties.class);
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
}
