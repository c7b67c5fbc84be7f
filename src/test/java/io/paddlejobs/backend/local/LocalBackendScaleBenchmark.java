package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.record.JobRecordStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local backend's own share of issue 14's local targets, without the web layer or a JVM start
 * ({@code LocalScaleBenchmark} measures them through the service): 1,000 submits queued behind 4
 * running jobs, then a restart over their records, split into reading, planning and the whole
 * take-over. Printed, not asserted. Run {@code ./mvnw test -Dtest=LocalBackendScaleBenchmark
 * -DexcludedGroups=none} ({@code -Dbench.jobs=N} for another count).
 */
@Tag("benchmark")
class LocalBackendScaleBenchmark {

    private static final int JOBS = Integer.getInteger("bench.jobs", 1000);
    private static final int RUNNING = 4;

    @TempDir
    Path dataRoot;

    @Test
    void submitsQueuedAndARestartOverTheirRecords() {
        try (var local = new LocalBackendFixture(dataRoot, RUNNING)) {
            List<Long> submits = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                JobPlan plan = local.plan(LocalBackendFixture.request("job-" + i, "sleep 600", 1, 1));
                long start = System.nanoTime();
                local.backend.submit(plan);
                submits.add(System.nanoTime() - start);
            }
            assertThat(local.job("job-" + (JOBS - 1)).status().queuePosition()).isEqualTo(JOBS - RUNNING);
            report("LocalJobBackend.submit, queued behind " + RUNNING + " running jobs", submits);
        }
        JobRecordStore store = new JobRecordStore(JobDirectories.under(dataRoot), LocalBackendFixture.json());
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            assertThat(store.loadAll()).hasSize(JOBS);
            long read = System.nanoTime();
            try (var restarted = new LocalBackendFixture(dataRoot, RUNNING)) {
                long tookOver = System.nanoTime();
                assertThat(restarted.job("job-" + (JOBS - 1)).status().phase()).isEqualTo(JobPhase.PENDING);
                System.out.printf("BENCH restart over %d records, in-process (ms): reading them %d; a new backend "
                        + "taking them over (read, plan, queue, start %d) %d%n", JOBS, (read - start) / 1_000_000,
                        RUNNING, (tookOver - read) / 1_000_000);
            }
        }
    }

    private static void report(String what, List<Long> nanos) {
        List<Long> sorted = nanos.stream().sorted().toList();
        System.out.printf("BENCH %s (ms): p50 %.2f, p99 %.2f, max %.2f (n=%d)%n", what,
                sorted.get(sorted.size() / 2) / 1e6, sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6, sorted.size());
    }
}
