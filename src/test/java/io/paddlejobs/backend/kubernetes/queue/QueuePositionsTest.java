package io.paddlejobs.backend.kubernetes.queue;

import io.paddlejobs.backend.kubernetes.MockCluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.MovableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Queue positions from Kueue's visibility API, against fabric8's mock API server (the real one: KueueRealClusterTest). */
class QueuePositionsTest {

    private static final String PATH = QueuePositions.API + "/namespaces/team-a/localqueues/gpu-team/pendingworkloads";
    private static final String SUMMARY = """
            {"kind":"PendingWorkloadsSummary","apiVersion":"visibility.kueue.x-k8s.io/v1beta2","metadata":{},
             "items":[{"metadata":{"name":"job-first-trainers-1a2b3","namespace":"team-a"},"priority":0,
                       "localQueueName":"gpu-team","positionInClusterQueue":2,"positionInLocalQueue":0},
                      {"metadata":{"name":"job-second-trainers-4c5d6","namespace":"team-a"},"priority":0,
                       "localQueueName":"gpu-team","positionInClusterQueue":3,"positionInLocalQueue":1}]}
            """;

    private final MockCluster cluster = new MockCluster();
    private final MovableClock clock = new MovableClock();
    private final QueuePositions positions = new QueuePositions(cluster.admin, clock);

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void kueuesPlacesCountFromZeroOursFromOne() {
        assertThat(QueuePositions.parse(SUMMARY)).containsEntry("job-first-trainers-1a2b3", new QueuePositions.Position(1, 3))
                .containsEntry("job-second-trainers-4c5d6", new QueuePositions.Position(2, 4)).hasSize(2);
        assertThat(QueueWaits.place(new QueuePositions.Position(2, 4))).isEqualTo(", number 2 in line (4 in its ClusterQueue)");
        assertThat(QueueWaits.place(null)).isEmpty();
    }

    @Test
    void oneReadAnswersForEveryJobOfTheQueueUntilItIsNoLongerFresh() {
        cluster.server.expect().get().withPath(PATH).andReturn(200, SUMMARY).always();
        int before = cluster.server.getRequestCount();

        assertThat(positions.of("team-a", "gpu-team", "job-first-trainers-1a2b3")).isEqualTo(new QueuePositions.Position(1, 3));
        assertThat(positions.of("team-a", "gpu-team", "job-second-trainers-4c5d6")).isEqualTo(new QueuePositions.Position(2, 4));
        assertThat(positions.of("team-a", "gpu-team", "admitted-meanwhile")).as("not pending any more").isNull();
        assertThat(cluster.server.getRequestCount() - before).isEqualTo(1);

        clock.advance(QueuePositions.FRESH);
        positions.of("team-a", "gpu-team", "job-first-trainers-1a2b3");
        assertThat(cluster.server.getRequestCount() - before).isEqualTo(2);
    }

    @Test
    void aClusterThatDoesNotServeTheApiIsAskedAgainOnlyAfterAPause() {
        cluster.server.expect().get().withPath(PATH).andReturn(404, "{\"kind\":\"Status\",\"code\":404}").always();
        int before = cluster.server.getRequestCount();

        assertThat(positions.of("team-a", "gpu-team", "job-first-trainers-1a2b3")).isNull();
        clock.advance(QueuePositions.FRESH.multipliedBy(2));
        assertThat(positions.of("team-a", "gpu-team", "job-first-trainers-1a2b3")).isNull();
        assertThat(cluster.server.getRequestCount() - before).as("asked once").isEqualTo(1);

        clock.advance(QueuePositions.UNSERVED_PAUSE);
        positions.of("team-a", "gpu-team", "job-first-trainers-1a2b3");
        assertThat(cluster.server.getRequestCount() - before).isEqualTo(2);
    }

    @Test
    void aServiceAccountNotAllowedToReadItGetsNoPositionAndNoError() {
        cluster.server.expect().get().withPath(PATH).andReturn(403, "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}")
                .always();

        assertThat(positions.of("team-a", "gpu-team", "job-first-trainers-1a2b3")).isNull();
    }
}
