package io.paddlejobs.backend.slurm.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.slurm.SlurmSite;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.DebugHold;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When a Slurm job is held ({@code debug_hold}): a replica's exit mark while its Slurm job runs (its task waits),
 * held from that exit for the request's duration, then told over; never without a {@code debug_hold} or after a cancel.
 */
class SlurmHoldsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final Instant FAILED_AT = T0.plusSeconds(20);
    private static final RestartBackoff BACKOFF = new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    @Test
    void aReplicaThatFailedWhileItsSlurmJobRunsIsHeldFromItsExitForTheRequestsHoldThenToldOver() {
        SlurmJob job = job("debug_hold=10m max_restarts=1");
        JobStatus shown = SlurmRestarts.during(job, trainerOneFailed(job));

        Optional<SlurmHolds.Held> held = SlurmHolds.of(job, shown, BACKOFF, FAILED_AT.plusSeconds(60));

        assertThat(held).hasValueSatisfying(h -> {
            assertThat(h.over()).isFalse();
            assertThat(h.status().phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(h.status().reason()).isEqualTo(DebugHold.HELD);
            assertThat(h.status().message()).contains("trainer-1 exited with code 3", "held until 2026-12-01 08:10:20 UTC",
                    "paddle-jobs exec demo --role trainer --index 1 -- sh", "then the job restarts (restart 1");
        });
        assertThat(SlurmHolds.of(job, shown, BACKOFF, FAILED_AT.plus(Duration.ofMinutes(10))))
                .hasValueSatisfying(h -> assertThat(h.over()).as("its time is over").isTrue());
    }

    @Test
    void noHoldWithoutADebugHoldOrOnceTheJobWasCancelled() {
        SlurmJob unheld = job("max_restarts=1");
        assertThat(SlurmHolds.of(unheld, trainerOneFailed(unheld), BACKOFF, FAILED_AT)).isEmpty();

        SlurmJob cancelled = job("debug_hold=10m").withCancelRequested(true);
        assertThat(SlurmHolds.of(cancelled, trainerOneFailed(cancelled), BACKOFF, FAILED_AT)).isEmpty();
    }

    private static SlurmJob job(String spec) {
        JobPlan plan = new JobPlanner(Settings.planningPolicy()).plan(JobRequests.named("demo", "true").spec(spec)
                .trainers(2).build(), "default", new SlurmSite(PlacementTest.PROPERTIES));
        var tracked = new SlurmStatusMapper.Tracked(plan, T0, false, List.of(), ReplicaMarks.NONE);
        return SlurmJob.submitting(plan, T0, SlurmStatusMapper.map(tracked)).submitted(7);
    }

    /** The Slurm job runs; trainer 0 runs, trainer 1 recorded its exit 3. */
    private static JobStatus trainerOneFailed(SlurmJob job) {
        var component = new SlurmJobInfo(7, 7, 0, "paddlejobs.default.demo", "RUNNING", "None", 0, 0, "n1", 5,
                T0.plusSeconds(1), null);
        var marks = new ReplicaMarks(Map.of(
                "trainer-0", new ReplicaMarks.Mark(true, null, false, T0.plusSeconds(2), null),
                "trainer-1", new ReplicaMarks.Mark(true, 3, false, T0.plusSeconds(2), FAILED_AT)), false, null);
        return SlurmStatusMapper.map(job.tracked(List.of(component), marks));
    }
}
