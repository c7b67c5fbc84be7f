package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.record.JobRecord;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** After a crash, and around deletes: leftovers stopped all at once, deleted jobs gone for good. */
@Tag("redteam") // Red team round 1, M4 and M7: leftovers after a crash, a delete that comes back.
class CrashRecoveryTest {

    @TempDir
    Path dataRoot;

    @Test
    void leftoversOfACrashAreStoppedSideBySideSoTheServiceStartsInSeconds() throws Exception {
        String marker = "leftover-3401";
        // One after the other, 16 leftovers that outlast SIGTERM took 16 grace periods before the port
        // opened: these leave on SIGTERM only once all 16 have had theirs.
        var stops = new SideBySideStops(dataRoot.resolve("stops"), 16);
        LocalProperties patient = LocalBackendFixture.properties(dataRoot, "max-running-jobs", 4, "stop-grace-period", "60s");
        JobPlan plan;
        Map<String, ReplicaProcess.ProcessRef> refs = new LinkedHashMap<>();
        try (var before = new LocalBackendFixture(patient, false)) {
            plan = before.plan(LocalBackendFixture.request("crashed", "true", 8, 8));
            for (var replica : plan.replicas()) {
                Process leftover = new ProcessBuilder("setsid", "sh", "-c", stops.command(marker)).start();
                refs.put(replica.id(), new ReplicaProcess.ProcessRef(leftover.pid(),
                        leftover.toHandle().info().startInstant().orElse(null)));
            }
            before.store().save(new JobRecord(plan.spec(), plan.namespace(), plan.ports().first(), running(plan), refs));
        }
        await().atMost(LocalBackendFixture.DEADLINE).until(() -> stops.ready() == 16);

        try (var after = new LocalBackendFixture(patient, false)) {
            assertThat(after.job("crashed").status().reason()).isEqualTo("ServiceRestarted");
            assertThat(anyProcessWith(marker)).isFalse();
            assertThat(stops.leftTogether()).as("leftovers that left once all 16 had their SIGTERM").isEqualTo(16);
        }
    }

    @Test
    void aDeleteWhileReplicasExitLeavesNothingAndNothingComesBack() {
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            for (int i = 0; i < 25; i++) {
                local.submit("racy-" + i, "true", 4, 8);
                assertThat(local.backend.delete(new JobKey("default", "racy-" + i))).isTrue();
            }
        }
        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            assertThat(after.backend.list("default")).isEmpty();
            assertThat(dataRoot.resolve("jobs/default").toFile().list()).isEmpty();
        }
    }

    private static JobStatus running(JobPlan plan) {
        Instant now = Instant.now();
        List<ReplicaStatus> replicas = plan.replicas().stream()
                .map(r -> new ReplicaStatus(r.id(), r.role(), r.index(), r.host(), ReplicaState.RUNNING, 0, null, null,
                        now, null))
                .toList();
        return new JobStatus(JobPhase.RUNNING, null, null, now, now, null, null,
                RoleCounts.of(8, replicas.stream().filter(r -> r.role() == Role.PSERVER).toList()),
                RoleCounts.of(8, replicas.stream().filter(r -> r.role() == Role.TRAINER).toList()), replicas);
    }
}
