package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.history.HistoryStores;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The list's order is the service's: newest first, then by name, whatever order the backend lists in,
 * and across what only the history has.
 */
class JobListTest {

    private static final JobPlanner PLANNER = new JobPlanner(Settings.planningPolicy());
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private final MemoryJobBackend backend = new MemoryJobBackend();
    private final JobService jobs = QuotaAdmissionTest.service(backend);

    @Test
    void listIsNewestFirstThenByNameAcrossPages() {
        created("b-oldest", T0);
        created("a-newest", T0.plusSeconds(2));
        created("c-middle", T0.plusSeconds(1));
        created("b-middle", T0.plusSeconds(1));

        JobPage first = jobs.list(new JobQuery("team-a", null, Map.of(), 3, null));
        JobPage second = jobs.list(new JobQuery("team-a", null, Map.of(), 3, first.continueToken()));

        assertThat(first.items()).extracting(job -> job.plan().name()).containsExactly("a-newest", "b-middle", "c-middle");
        assertThat(second.items()).extracting(job -> job.plan().name()).containsExactly("b-oldest");
    }

    @Test
    void aJobWithoutACreationTimeYetComesLast() {
        created("known", T0);
        created("unknown", null);

        assertThat(jobs.list(new JobQuery("team-a", null, Map.of(), 10, null)).items())
                .extracting(job -> job.plan().name()).containsExactly("known", "unknown");
    }

    @Test
    void aTimeRangeKeepsJobsCreatedAtOrAfterItsStartAndBeforeItsEnd() {
        created("before", T0.minusMillis(1));
        created("at-start", T0);
        created("inside", T0.plusSeconds(1));
        created("at-end", T0.plusSeconds(2));
        created("not-yet-known", null);

        JobPage page = jobs.list(new JobQuery("team-a", null, Map.of(), T0, T0.plusSeconds(2), 10, null));

        assertThat(page.items()).extracting(job -> job.plan().name()).containsExactly("inside", "at-start", "not-yet-known");
    }

    /**
     * 450 jobs only the history has, 3 live ones (2 of them in the history as well): pages of 50 list
     * each once, in order, a live job as its backend has it, while the history is read in batches.
     */
    @Test
    void pagesThroughLiveAndArchivedJobsListEachOnceInOrder(@TempDir Path dir) {
        try (HikariDataSource store = HistoryStores.embedded(dir)) {
            JobHistory history = HistoryStores.jobHistory(store);
            JobService withHistory = QuotaAdmissionTest.service(backend, history);
            for (int i = 0; i < 450; i++) {
                // Ten jobs to each creation time: batches end inside such groups.
                history.record(finished("archived-" + i, T0.minusSeconds(i / 10)));
            }
            history.record(finished("live-1", T0.minusSeconds(7)));
            history.record(finished("live-2", T0.plusSeconds(1)));
            created("live-1", T0.minusSeconds(7));
            created("live-2", T0.plusSeconds(1));
            created("live-3", T0.minusSeconds(100));

            List<Job> all = new ArrayList<>();
            String token = null;
            do {
                JobPage page = withHistory.list(new JobQuery("team-a", null, Map.of(), 50, token));
                all.addAll(page.items());
                token = page.continueToken();
            } while (token != null);

            assertThat(all).hasSize(453);
            assertThat(all).extracting(Job::key).doesNotHaveDuplicates();
            assertThat(all).isSortedAccordingTo(ListPosition.ORDER);
            assertThat(all).filteredOn(job -> job.plan().name().startsWith("live-"))
                    .allSatisfy(job -> assertThat(job.status().archived()).isFalse());
            assertThat(all).filteredOn(job -> job.plan().name().startsWith("archived-"))
                    .allSatisfy(job -> assertThat(job.status().archived()).isTrue());
        }
    }

    private Job finished(String name, Instant createdAt) {
        JobPlan plan = PLANNER.plan(JobRequests.named(name, "python train.py").build(), "team-a", backend.site());
        RoleCounts none = new RoleCounts(1, 0, 0, 0, 0);
        return new Job(plan, new JobStatus(JobPhase.SUCCEEDED, JobStatus.COMPLETED, "done", createdAt, createdAt,
                createdAt, null, none, none, List.of()));
    }

    private void created(String name, Instant at) {
        backend.createdAt(PLANNER.plan(JobRequests.named(name, "python train.py").build(), "team-a", backend.site()), at);
    }
}
