package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoleCountsTest {

    @Test
    void stoppedReplicasAreCountedSoThatTheCountsAddUpToDesired() {
        List<ReplicaStatus> pservers = List.of(replica(0, ReplicaState.STOPPED), replica(1, ReplicaState.STOPPED),
                replica(2, ReplicaState.FAILED));

        RoleCounts counts = RoleCounts.of(3, pservers);

        assertThat(counts).isEqualTo(new RoleCounts(3, 0, 0, 0, 1, 2));
        assertThat(counts.pending() + counts.running() + counts.succeeded() + counts.failed() + counts.stopped())
                .isEqualTo(counts.desired());
    }

    private static ReplicaStatus replica(int index, ReplicaState state) {
        return new ReplicaStatus("pserver-" + index, Role.PSERVER, index, "127.0.0." + (index + 1), state, 0, 143,
                null, null, null);
    }
}
