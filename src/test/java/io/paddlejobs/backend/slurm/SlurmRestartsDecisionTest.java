package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.BatchScripts;
import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.backend.slurm.state.NextAttempts;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRestarts;
import io.paddlejobs.backend.slurm.state.SlurmStatusMapper;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.job.attempt.FailureCause;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How an ended attempt of a Slurm job is decided on, and how a service that stopped mid-restart finds its attempt. */
class SlurmRestartsDecisionTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    static final RestartBackoff BACKOFF = new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    @ParameterizedTest(name = "{0} ({1}, {2} exited {3}) -> {4}")
    @CsvSource({
            "FAILED, TrainerFailed, trainer-1, 1, EXIT",
            "FAILED, TrainerFailed, trainer-1, 137, INFRASTRUCTURE",   // a kill by SIGKILL from outside the program
            "FAILED, PserverFailed, pserver-0, 139, EXIT",             // a crash is the program's own
            "NODE_FAIL, NodeFailed, , , INFRASTRUCTURE",
            "OUT_OF_MEMORY, OutOfMemory, , , INFRASTRUCTURE",
            "PREEMPTED, Preempted, , , INFRASTRUCTURE",
            "LOST, Lost, , , INFRASTRUCTURE",
            "FAILED, Failed, , , EXIT",
    })
    void aFailureIsTheProgramsOwnOrFromOutside(String state, String reason, String replica, Integer exitCode,
                                               RestartOn.Cause cause) {
        SlurmStatusMapper.Seen seen = seen(state, replica == null ? Map.of()
                : Map.of(replica, new ReplicaMarks.Mark(true, exitCode, false)));

        assertThat(seen.status().reason()).isEqualTo(reason);
        assertThat(FailureCause.of(seen.ending())).contains(cause);
    }

    @Test
    void theFailedReplicaAndItsSignalAreCarriedFromItsMarkNotReadFromTheMessage() {
        Ending ending = seen("FAILED", Map.of("trainer-1", new ReplicaMarks.Mark(true, 137, false))).ending();

        assertThat(ending.role()).isEqualTo(Role.TRAINER);
        assertThat(ending.index()).isEqualTo(1);
        assertThat(ending.exitCode()).isEqualTo(137);
        assertThat(ending.signal()).isEqualTo(9);
        Ending reworded = new Ending(ending.kind(), ending.role(), ending.index(), ending.exitCode(), ending.reason(),
                "a replica was killed");
        assertThat(FailureCause.of(reworded)).as("whatever the message says").contains(RestartOn.Cause.INFRASTRUCTURE);
    }

    @Test
    void aTimeLimitOrACancelInSlurmEndsTheJobWhateverRestartsAreLeft() {
        SlurmJob job = running("max_restarts=3");
        for (String state : List.of("TIMEOUT", "CANCELLED")) {
            SlurmStatusMapper.Seen seen = seen(state, Map.of());
            String reason = seen.status().reason();
            SlurmJob after = SlurmRestarts.ended(job, seen.status(), seen.ending(), BACKOFF, T0);

            assertThat(after.status().phase()).as(reason).isEqualTo(JobPhase.FAILED);
            assertThat(after.restartAt()).isNull();
            assertThat(after.status().attempts()).singleElement().satisfies(a -> assertThat(a.reason()).isEqualTo(reason));
        }
        assertThat(List.of(seen("TIMEOUT", Map.of()).status().reason(), seen("CANCELLED", Map.of()).status().reason()))
                .containsExactly("TimeLimit", "CancelledInSlurm");
    }

    @Test
    void aLostNodeRestartsTheJobAfterTheBackoffWithTheRestartInItsMessage() {
        SlurmJob job = running("max_restarts=2 restart_on=infrastructure");

        SlurmJob after = SlurmRestarts.ended(job, ended(job, JobPhase.FAILED, "NodeFailed", "a node of the job (n2) failed"),
                Ending.fromOutside("NodeFailed", "a node of the job (n2) failed"), BACKOFF, T0.plusSeconds(60));

        assertThat(after.status().phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(after.status().reason()).isEqualTo("Restarting");
        assertThat(after.status().message()).isEqualTo("a node of the job (n2) failed; restart 1 of 2 in 10 s");
        assertThat(after.status().restarts()).isEqualTo(1);
        assertThat(after.restartAt()).isEqualTo(T0.plusSeconds(70));
    }

    @Test
    void aJobThatMayNotRestartEndsAsTheMapperSaysAndShowsNoAttempts() {
        SlurmJob job = running("");
        JobStatus failed = ended(job, JobPhase.FAILED, "NodeFailed", "lost");

        SlurmJob after = SlurmRestarts.ended(job, failed, Ending.fromOutside("NodeFailed", "lost"), BACKOFF, T0);

        assertThat(after.status()).isEqualTo(failed);
        assertThat(after.status().attempts()).isEmpty();
    }

    @Test
    void aServiceStoppedAfterSubmittingTheNextAttemptTakesTheNewerSlurmJobOfTheJobsNameAsIt() {
        SlurmJob waiting = SlurmRestarts.ended(running("max_restarts=2"),
                ended(running("max_restarts=2"), JobPhase.FAILED, "NodeFailed", "lost"),
                Ending.fromOutside("NodeFailed", "lost"), BACKOFF, T0);
        String name = BatchScripts.jobName(waiting.plan());

        SlurmJob adopted = NextAttempts.adopt(waiting, List.of(info(7, name), info(9, "paddlejobs.other.job"),
                info(8, name)));

        assertThat(adopted.slurmId()).isEqualTo(8);
        assertThat(adopted.restartAt()).isNull();
        assertThat(adopted.status().attempts()).hasSize(2);
        assertThat(NextAttempts.adopt(waiting, List.of(info(7, name)))).as("none submitted: it waits on").isSameAs(waiting);
    }

    static SlurmJob running(String spec) {
        JobPlan plan = new JobPlanner(Settings.planningPolicy()).plan((spec.isEmpty()
                ? JobRequests.named("demo", "true") : JobRequests.named("demo", "true").spec(spec)).build(),
                "default", new SlurmSite(PlacementTest.PROPERTIES));
        var tracked = new SlurmStatusMapper.Tracked(plan, T0, false, List.of(), ReplicaMarks.NONE);
        return SlurmJob.submitting(plan, T0, SlurmStatusMapper.map(tracked)).submitted(7);
    }

    static JobStatus ended(SlurmJob job, JobPhase phase, String reason, String message) {
        JobStatus s = job.status();
        return new JobStatus(phase, reason, message, s.createdAt(), T0, T0.plusSeconds(30), null, s.pservers(),
                s.trainers(), s.replicas());
    }

    /** How a job of two pservers and two trainers ended in {@code state} (LOST: Slurm forgot it), with these marks. */
    private static SlurmStatusMapper.Seen seen(String state, Map<String, ReplicaMarks.Mark> marks) {
        var component = new SlurmJobInfo(10, 10, 0, "paddlejobs.default.demo", state, "None", 0, 0, "n1", 5,
                T0.plusSeconds(1), T0.plusSeconds(9));
        var tracked = new SlurmStatusMapper.Tracked(PlacementTest.plan(), T0, false,
                state.equals("LOST") ? List.of() : List.of(component), new ReplicaMarks(marks, false, null));
        return state.equals("LOST") ? SlurmStatusMapper.seeForgotten(tracked, T0.plusSeconds(9))
                : SlurmStatusMapper.see(tracked);
    }

    private static SlurmJobInfo info(long id, String name) {
        return new SlurmJobInfo(id, 0, 0, name, "PENDING", "None", 0, 0, "", 0, null, null);
    }
}
