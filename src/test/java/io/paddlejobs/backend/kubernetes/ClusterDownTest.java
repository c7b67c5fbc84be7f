package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.ClusterUnavailableException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.testing.Settings;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.http.HttpHeaders;

/** With the API server away, requests fail fast with 503 and the service reports itself not ready. */
class ClusterDownTest {

    private final KubernetesConnection shipped = Settings.defaults(KubernetesConnection.class);
    private MockCluster.Backend backend;

    @BeforeEach
    void startAgainstNothing() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // The shipped timeouts, not the mock cluster's patient ones.
        backend = MockCluster.Backend.start(
                Settings.of(KubernetesConnection.class, "master-url", "http://127.0.0.1:" + closedPort),
                Settings.defaults(KubernetesProperties.class));
    }

    @AfterEach
    void stop() {
        backend.close();
    }

    @Test
    void theClientMakesOneAttemptPerRequestWithinTheShippedTimeouts() {
        var config = backend.client().getConfiguration();

        // fabric8 retries a failed request with backoff for about 19 s unless told not to.
        assertThat(config.getRequestRetryBackoffLimit()).isZero();
        assertThat(config.getRequestTimeout()).isEqualTo(shipped.requestTimeout().toMillis());
        assertThat(config.getConnectionTimeout()).isEqualTo(shipped.connectTimeout().toMillis());
    }

    /** How soon it comes is the client's configuration, pinned above: one attempt, bounded by the shipped timeouts. */
    @Test
    void submitIsA503WithRetryAfter() {
        assertThatThrownBy(() -> backend.jobs().submit(Plans.plan("mnist", 1)))
                .isInstanceOf(ClusterUnavailableException.class)
                .satisfies(e -> {
                    var problem = (ClusterUnavailableException) e;
                    assertThat(problem.getStatusCode().value()).isEqualTo(503);
                    assertThat(problem.getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                            .isEqualTo(Long.toString(ClusterUnavailableException.RETRY_AFTER.toSeconds()));
                });
    }

    @Test
    void readinessIsDownAndReadsAnswerFromTheEmptyCache() {
        assertThat(new KubernetesHealthIndicator(backend.cache()).health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(backend.jobs().find(new JobKey("ml", "mnist"))).isEmpty();
    }
}
