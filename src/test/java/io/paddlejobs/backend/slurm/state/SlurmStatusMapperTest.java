package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.slurm.SlurmSite;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Slurm's states and the replicas' own marks, as our phases with reasons in words (two pservers, two trainers). */
class SlurmStatusMapperTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final ReplicaMarks.Mark STARTED = new ReplicaMarks.Mark(true, null, false);

    private static SlurmJobInfo component(int offset, String state, String reason, int limitMinutes) {
        return new SlurmJobInfo(10 + offset, 10, offset, "paddlejobs.default.demo", state, reason, 0, 0,
                "n" + (offset + 1), limitMinutes, T0.plusSeconds(1), state.equals("RUNNING") ? null : T0.plusSeconds(9));
    }

    private static JobStatus map(String state, String reason, Map<String, ReplicaMarks.Mark> marks, boolean cancelled) {
        var tracked = new SlurmStatusMapper.Tracked(PlacementTest.plan(), T0, cancelled,
                List.of(component(0, state, reason, 5), component(1, state, reason, 5)),
                new ReplicaMarks(marks, false, null));
        return SlurmStatusMapper.map(tracked);
    }

    private static Map<String, ReplicaMarks.Mark> all(ReplicaMarks.Mark mark) {
        Map<String, ReplicaMarks.Mark> marks = new HashMap<>();
        for (String id : List.of("pserver-0", "pserver-1", "trainer-0", "trainer-1")) {
            marks.put(id, mark);
        }
        return marks;
    }

    private static ReplicaMarks.Mark exited(int code, boolean stopped) {
        return new ReplicaMarks.Mark(true, code, stopped);
    }

    @Test
    void aJobWaitingForResourcesIsPendingWithSlurmsReasonInWords() {
        JobStatus status = map("PENDING", "Resources", Map.of(), false);

        assertThat(status.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.message()).startsWith("waiting for resources").endsWith("(Slurm: Resources)");
        assertThat(status.replicas()).extracting(ReplicaStatus::state).containsOnly(ReplicaState.PENDING);
    }

    @Test
    void aJobSlurmStartedIsRunningOnlyOnceEveryReplicaHasStarted() {
        Map<String, ReplicaMarks.Mark> some = new HashMap<>(Map.of("pserver-0", STARTED));
        assertThat(map("RUNNING", "None", some, false).reason()).isEqualTo("Starting");

        JobStatus running = map("RUNNING", "None", all(STARTED), false);

        assertThat(running.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(running.startedAt()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void aCompletedJobSucceededAndItsStoppedPserversAreStoppedNotFailed() {
        Map<String, ReplicaMarks.Mark> marks = all(exited(0, false));
        marks.put("pserver-1", exited(143, true));

        JobStatus status = map("COMPLETED", "None", marks, false);

        assertThat(status.phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(status.trainers().succeeded()).isEqualTo(2);
        assertThat(status.replicas().get(1).state()).isEqualTo(ReplicaState.STOPPED);
        assertThat(status.finishedAt()).isEqualTo(T0.plusSeconds(9));
    }

    @Test
    void aTrainerExitingNonZeroFailsTheJobNamingItAndItsExitCode() {
        Map<String, ReplicaMarks.Mark> marks = all(exited(143, true));
        marks.put("trainer-1", exited(127, false));

        JobStatus status = map("FAILED", "NonZeroExitCode", marks, false);

        assertThat(status.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(status.reason()).isEqualTo("TrainerFailed");
        assertThat(status.message()).isEqualTo("trainer-1 exited with code 127 (command not found: check entry_point and that PATH or the image holds it)");
        assertThat(status.trainers().failed()).isEqualTo(1);
    }

    @Test
    void aFailedTrainersLastWordsAreTheJobsMessage() {
        Map<String, ReplicaMarks.Mark> marks = all(exited(143, true));
        marks.put("trainer-1", exited(2, false).withLastWords("python3: can't open file '/w/train.py'"));

        JobStatus status = map("FAILED", "NonZeroExitCode", marks, false);

        assertThat(status.message()).isEqualTo("trainer-1 exited with code 2: \"python3: can't open file '/w/train.py'\"");
    }

    @Test
    void aTimeLimitFailsTheJobSayingSoAndItsKilledReplicasAreStopped() {
        JobStatus status = map("TIMEOUT", "TimeLimit", all(exited(143, false)), false);

        assertThat(status.reason()).isEqualTo("TimeLimit");
        assertThat(status.message()).isEqualTo("the job ran into its time limit of 5 minutes and Slurm stopped it");
        assertThat(status.replicas()).extracting(ReplicaStatus::state).containsOnly(ReplicaState.STOPPED);
    }

    @Test
    void aNodeFailureFailsTheJobNamingItsNodes() {
        JobStatus status = map("NODE_FAIL", "NodeDown", all(STARTED), false);

        assertThat(status.reason()).isEqualTo("NodeFailed");
        assertThat(status.message()).contains("(n1,n2) failed while it ran");
        assertThat(status.replicas()).extracting(ReplicaStatus::reason).containsOnly("lost: a node of the job failed");
    }

    @Test
    void aCancelFromOutsideTheServiceIsAFailureAndOursIsCancelled() {
        assertThat(map("CANCELLED", "None", all(STARTED), false).reason()).isEqualTo("CancelledInSlurm");
        assertThat(map("CANCELLED", "None", all(STARTED), true).phase()).isEqualTo(JobPhase.CANCELLED);
    }

    @Test
    void aJobSlurmHasForgottenEndsAsItsTrainersRecorded() {
        var succeeded = new SlurmStatusMapper.Tracked(PlacementTest.plan(), T0, false, List.of(),
                new ReplicaMarks(all(exited(0, false)), false, null));
        var unknown = new SlurmStatusMapper.Tracked(PlacementTest.plan(), T0, false, List.of(),
                new ReplicaMarks(all(STARTED), false, null));

        assertThat(SlurmStatusMapper.forgotten(succeeded, T0).phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(SlurmStatusMapper.forgotten(unknown, T0).reason()).isEqualTo("Lost");
    }

    /** A collective job of two trainers, as Slurm plans it, with trainer 0 placed at 10.0.0.2:7164. */
    private static SlurmStatusMapper.Tracked collective(String state, ReplicaMarks marks, boolean cancelled) {
        JobRequest request = JobRequests.named("meet", "python3 train.py").mode(JobMode.COLLECTIVE).trainers(2)
                .port(7164).build();
        JobPlan plan = new JobPlanner(Settings.planningPolicyWithoutGpuRules())
                .plan(request, "default", new SlurmSite(PlacementTest.PROPERTIES));
        return new SlurmStatusMapper.Tracked(plan, T0, cancelled, List.of(component(0, state, "None", 5)), marks);
    }

    @Test
    void aTrainerThatGaveUpOnTrainerZerosMasterPortFailsTheJobInWordsAndTheOthersWereStopped() {
        Placement placement = Placement.parse("trainer-0 10.0.0.2 7164 n1\ntrainer-1 10.0.0.2 7165 n1\n");
        var marks = new ReplicaMarks(Map.of("trainer-0", exited(143, true)), true, placement, Duration.ofSeconds(600));

        JobStatus status = SlurmStatusMapper.map(collective("FAILED", marks, false));

        assertThat(status.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(status.reason()).isEqualTo("RendezvousNotListening");
        assertThat(status.message()).contains("trainer-0 did not accept connections on its master port 10.0.0.2:7164",
                "within 600s (paddlejobs.rendezvous-listen-timeout)", "init_parallel_env()");
        assertThat(status.replicas()).extracting(ReplicaStatus::reason)
                .containsExactly("stopped when the job's outcome was decided", "never started");
    }

    @Test
    void aCancelWhileTrainersWaitIsACancelAndAJobWhoseTrainersDoNotMeetIgnoresTheMark() {
        var marks = new ReplicaMarks(Map.of(), true, null, Duration.ofSeconds(600));
        assertThat(SlurmStatusMapper.map(collective("CANCELLED", marks, true)).phase()).isEqualTo(JobPhase.CANCELLED);

        var psJob = new SlurmStatusMapper.Tracked(PlacementTest.plan(), T0, false,
                List.of(component(0, "FAILED", "None", 5), component(1, "FAILED", "None", 5)),
                new ReplicaMarks(all(exited(1, false)), false, null, Duration.ofSeconds(600)));
        assertThat(SlurmStatusMapper.map(psJob).reason()).isEqualTo("TrainerFailed");
    }
}
