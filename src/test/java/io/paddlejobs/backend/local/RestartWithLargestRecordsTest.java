package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.record.JobRecordStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Role;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's crash loop: records of the largest jobs (64 + 64 replicas, as much env as a plan may
 * hold) used to hold the environment once per replica, and a restart with a few dozen of them ran
 * out of heap. Records now hold the request, so a service with a small heap ({@code -Xmx192m})
 * restarts over a hundred of them. What the recovered jobs hold is measured in this JVM (live heap
 * after a full collection, before and after the restart), rather than in a second JVM of that size.
 */
@Tag("redteam") // Red team round 1, H5: the restart crash loop of the largest records.
class RestartWithLargestRecordsTest {

    private static final int RECORDS = 100;
    /**
     * Two thirds of a 192 MB heap, the rest being the service's own (Spring, Tomcat): about 80 MB are
     * held today; the earlier records' plans held every replica's environment, over 3.6 MB a job here.
     */
    private static final long ROOM_IN_A_SMALL_HEAP = 128L * 1024 * 1024;

    @TempDir
    Path dataRoot;

    @Test
    void aRestartOverManyRecordsOfTheLargestJobsFitsInASmallHeap() throws Exception {
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            JobRecordStore store = local.store();
            String value = "v".repeat(4000);
            StringBuilder env = new StringBuilder();
            for (int i = 0; i < 7; i++) {
                env.append(i == 0 ? "" : ",").append("\"BIG_").append(i).append("\":\"").append(value).append('"');
            }
            for (int n = 0; n < RECORDS; n++) {
                JobRequest request = LocalBackendFixture.json().readValue(("{\"name\":\"amp-%d\",\"entry_point\":\"sleep 20\","
                        + "\"trainers\":64,\"pservers\":64,\"num_cpus\":64,\"env\":{%s}}").formatted(n, env), JobRequest.class);
                JobPlan plan = local.plan(request);
                store.save(new JobRecord(plan.spec(), plan.namespace(), 21000, finished(plan), Map.of()));
            }
        }
        long largest = Files.size(dataRoot.resolve("jobs/default/amp-0/job.json"));
        assertThat(largest).as("a record holds the request once, not once per replica").isLessThan(150_000);

        long before = liveHeap();
        try (var restarted = new LocalBackendFixture(dataRoot, 4)) {
            long held = liveHeap() - before;

            assertThat(restarted.backend.list("default")).hasSize(RECORDS)
                    .allMatch(job -> job.status().phase() == JobPhase.SUCCEEDED);
            assertThat(held).as("bytes the %d recovered jobs hold", RECORDS).isLessThan(ROOM_IN_A_SMALL_HEAP);
        }
    }

    /** Bytes of live objects: {@code System.gc()} is a full, stop-the-world collection on the JVM's default collector. */
    private static long liveHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static JobStatus finished(JobPlan plan) {
        Instant now = Instant.now();
        List<ReplicaStatus> replicas = plan.replicas().stream()
                .map(r -> new ReplicaStatus(r.id(), r.role(), r.index(), r.host(),
                        r.role() == Role.TRAINER ? ReplicaState.SUCCEEDED : ReplicaState.STOPPED, 0, 0, null, now, now))
                .toList();
        return new JobStatus(JobPhase.SUCCEEDED, "Completed", "every trainer exited 0", now, now, now, null,
                RoleCounts.of(64, replicas.stream().filter(r -> r.role() == Role.PSERVER).toList()),
                RoleCounts.of(64, replicas.stream().filter(r -> r.role() == Role.TRAINER).toList()), replicas);
    }
}
