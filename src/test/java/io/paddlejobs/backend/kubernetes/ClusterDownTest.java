package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.job.JobKey;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.http.HttpHeaders;

/** With the API server away, requests fail fast with 503 and the service reports itself not ready. */
class ClusterDownTest {

    private MockCluster.Backend backend;

    @BeforeEach
    void startAgainstNothing() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        var settings = MockCluster.settings("http://127.0.0.1:" + closedPort, List.of());
        // The shipped timeouts, not the test's patient ones.
        var shipped = KubernetesProperties.defaults();
        settings = shipped.withApiServer(settings.masterUrl(), shipped.requestTimeout(), List.of());
        backend = startBackend(settings);
    }

    private static MockCluster.Backend startBackend(KubernetesProperties settings) {
        var client = KubernetesClients.create(settings);
        return new MockCluster.Backend(client, KubernetesRuntime.start(client, settings, Plans.PLANNER,
                java.time.Clock.systemUTC()));
    }

    @AfterEach
    void stop() {
        backend.close();
    }

    @Test
    void submitFailsWithinThreeSecondsWith503AndRetryAfter() {
        var plan = Plans.plan("mnist", 1);
        // A first attempt loads the client's classes; a running service has long done so.
        assertThatThrownBy(() -> backend.jobs().submit(plan)).isInstanceOf(ClusterUnavailableException.class);

        Instant start = Instant.now();
        assertThatThrownBy(() -> backend.jobs().submit(plan))
                .isInstanceOf(ClusterUnavailableException.class)
                .satisfies(e -> {
                    var problem = (ClusterUnavailableException) e;
                    assertThat(problem.getStatusCode().value()).isEqualTo(503);
                    assertThat(problem.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
                });
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void readinessIsDownAndReadsAnswerFromTheEmptyCache() {
        assertThat(new KubernetesHealthIndicator(backend.cache()).health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(backend.jobs().find(new JobKey("ml", "mnist"))).isEmpty();
    }
}
