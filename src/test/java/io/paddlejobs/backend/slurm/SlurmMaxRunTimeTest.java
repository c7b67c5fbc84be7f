package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.state.NextAttempts;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.backend.slurm.state.SlurmRestarts;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slurm counts a job's {@code max_run_time} from its first start, the waits before restarts included: the plan
 * says so when those waits may take a tenth of it or more, and a restarted attempt's status says how much is left.
 */
class SlurmMaxRunTimeTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");

    @TempDir
    Path jobsDir;

    @Test
    void aPlanWhoseRestartsMayWaitMuchOfItsRunTimeIsWarned() {
        SlurmJobBackend backend = new SlurmJobBackend(PlacementTest.PROPERTIES, new SlurmRecordWritesTest.IdleSlurm(), records(),
                Clock.systemUTC(), SlurmRestartsDecisionTest.BACKOFF);
        var planner = new JobPlanner(Settings.planningPolicy());
        var site = new SlurmSite(PlacementTest.PROPERTIES);

        var longWaits = planner.plan(JobRequests.named("long", "true").spec("max_run_time=2h max_restarts=10").build(),
                "default", site);
        var shortWaits = planner.plan(JobRequests.named("short", "true").spec("max_run_time=2h max_restarts=3").build(),
                "default", site);

        assertThat(backend.warnings(longWaits)).singleElement().asString()
                .contains("max_run_time (2h) counts from the job's first start", "up to 30m10s");
        assertThat(backend.warnings(shortWaits)).isEmpty();
    }

    @Test
    void aRestartedAttemptsStatusSaysHowMuchOfMaxRunTimeIsLeft() {
        SlurmJob first = SlurmRestartsDecisionTest.running("max_restarts=2 max_run_time=1h");
        SlurmJob waiting = SlurmRestarts.ended(first, SlurmRestartsDecisionTest.ended(first, JobPhase.FAILED, "NodeFailed",
                "a node of the job (n2) failed"), Ending.fromOutside("NodeFailed", "a node of the job (n2) failed"),
                SlurmRestartsDecisionTest.BACKOFF, T0.plusSeconds(30));
        var jobs = new ConcurrentHashMap<JobKey, SlurmJob>();
        jobs.put(waiting.key(), waiting);
        var attempts = new NextAttempts(jobs, new SlurmRecordWritesTest.IdleSlurm(), records(), PlacementTest.PROPERTIES, key -> { });

        attempts.submitIfDue(waiting, T0.plus(Duration.ofMinutes(50))); // started at T0: 50 of its 60 minutes are gone

        assertThat(jobs.get(waiting.key()).status().message()).isEqualTo("restart 1 of 2: submitted to Slurm as job 8;"
                + " it has 10 of max_run_time's 60 minutes left (they count from the job's first start, the waits"
                + " before restarts included)");
    }

    private SlurmRecords records() {
        return new SlurmRecords(new JobDirectories(jobsDir, jobsDir.resolveSibling("storage")),
                JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                        .addModule(new PlanningJsonModule()).build());
    }
}
