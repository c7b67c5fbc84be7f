package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link SubmitAndReadBenchmark} against fabric8's mock API server (CRUD mode). Run with
 * {@code ./mvnw -B test -Dtest='*Benchmark' -DexcludedGroups=none}.
 * API calls are counted from the server's own request log: every GET whose path names the namespace.
 */
@Tag("benchmark")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "paddlejobs.backend=kubernetes", "paddlejobs.kubernetes.request-timeout=30s", "logging.level.root=WARN"})
class MockServerBenchmark extends SubmitAndReadBenchmark {

    private static final String NS = "bench";
    private static final String READS = "reads";
    private static final MockCluster CLUSTER = new MockCluster();
    private static final Map<String, AtomicLong> REQUESTS =
            new ConcurrentHashMap<>();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.kubernetes.master-url", CLUSTER::url);
        CLUSTER.provideDataClaim(NS);
        CLUSTER.provideDataClaim(READS);
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.close();
    }

    @Override
    String namespace() {
        return NS;
    }

    @Override
    String readNamespace() {
        return READS;
    }

    @Override
    KubernetesClient direct() {
        return CLUSTER.admin;
    }

    @Override
    long requestsAbout(String namespace) {
        // The mock keeps every request it served, in order; count those that named the namespace.
        try {
            for (var request = CLUSTER.server.takeRequest(0, TimeUnit.MILLISECONDS); request != null;
                 request = CLUSTER.server.takeRequest(0, TimeUnit.MILLISECONDS)) {
                String path = request.getPath();
                if (request.getMethod().equals("GET") && path.contains("/namespaces/" + namespace + "/")
                        && !path.contains("/events")) {
                    REQUESTS.computeIfAbsent(namespace, ns -> new AtomicLong()).incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return REQUESTS.getOrDefault(namespace, new AtomicLong()).get();
    }

    @Override
    String where() {
        return "fabric8 mock API server (CRUD)";
    }
}
