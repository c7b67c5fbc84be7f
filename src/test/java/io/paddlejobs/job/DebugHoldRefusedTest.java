package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobRequests;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A backend that holds no failed attempt (Kubernetes, Slurm through slurmrestd, and this in-memory one) refuses
 * {@code debug_hold} at submit, naming it, and creates nothing; exec into any of its jobs is a 409.
 */
class DebugHoldRefusedTest {

    private final MemoryJobBackend backend = new MemoryJobBackend();
    private final JobService jobs = QuotaAdmissionTest.service(backend);

    @Test
    void aDebugHoldIsRefusedNamingItWhereTheBackendHoldsNoFailedAttemptAndNothingIsCreated() {
        assertThatThrownBy(() -> jobs.submit(JobRequests.named("held", "true").spec("debug_hold=10m").build(), "team-a",
                Quota.NONE))
                .isInstanceOfSatisfying(InvalidJobRequestException.class, e -> assertThat(e.violations())
                        .anySatisfy(v -> {
                            assertThat(v.fields()).containsExactly("debug_hold");
                            assertThat(v.message()).contains("does not hold failed attempts");
                        }));
        assertThat(backend.find(new JobKey("team-a", "held"))).isEmpty();
    }

    @Test
    void execIntoAJobThatIsNotHeldIsAConflictNamingTheRule() {
        jobs.submit(JobRequests.named("running", "true").build(), "team-a", Quota.NONE);

        assertThatThrownBy(() -> jobs.exec(new JobKey("team-a", "running"), io.paddlejobs.planning.Role.TRAINER, 0,
                List.of("true"))).isInstanceOf(JobConflictException.class).hasMessageContaining("Job not held");
    }
}
