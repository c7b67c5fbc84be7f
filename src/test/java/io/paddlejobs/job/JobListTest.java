package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The list's order is the service's: newest first, then by name, whatever order the backend lists in. */
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

    private void created(String name, Instant at) {
        backend.createdAt(PLANNER.plan(JobRequests.named(name, "python train.py").build(), "team-a", backend.site()), at);
    }
}
