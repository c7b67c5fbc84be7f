package io.paddlejobs.job.attempt;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The attempt ledger every backend keeps, step by step, and the statuses it shows. */
class AttemptLedgerTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final RestartBackoff BACKOFF = new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));
    private final JobRequest twoRestarts = JobRequests.spec("max_restarts=2").build();

    @Test
    void anAttemptIsBegunEndedAndTheNextOneNumberedByTheRestart() {
        AttemptLedger first = AttemptLedger.NONE.begin(T0);
        Ending exit = Ending.exited(Role.TRAINER, 1, 1, "TrainerFailed", "trainer-1 exited with code 1");

        var restart = (RestartDecision.Restart) first.after(twoRestarts, exit, BACKOFF).orElseThrow();
        AttemptLedger second = first.end(T0.plusSeconds(30), exit.reason(), exit.message()).restarting(restart)
                .begin(T0.plusSeconds(40));

        assertThat(restart.message()).isEqualTo("trainer-1 exited with code 1; restart 1 of 2 in 10 s");
        assertThat(second.restarts()).isEqualTo(1);
        assertThat(second.attempts()).containsExactly(
                new Attempt(0, T0, T0.plusSeconds(30), "TrainerFailed", "trainer-1 exited with code 1"),
                Attempt.begun(1, T0.plusSeconds(40)));
        assertThat(second.end(T0.plusSeconds(50), "Completed", "done").end(T0.plusSeconds(60), "again", "x")
                .attempts().get(1).finishedAt()).as("an ended attempt stays as it ended").isEqualTo(T0.plusSeconds(50));
    }

    @Test
    void theLastRestartSpentFailsTheJobSayingHowManyItHad() {
        AttemptLedger third = new AttemptLedger(2, List.of());

        var fail = third.after(twoRestarts, Ending.fromOutside("NodeFailed", "a node failed"), BACKOFF).orElseThrow();

        assertThat(fail).isEqualTo(new RestartDecision.Fail("failed after 2 restarts: a node failed"));
    }

    @Test
    void anAttemptQueuedBeforeItStartedBeganWhenItStarted() {
        AttemptLedger opened = AttemptLedger.NONE.begin(T0);

        assertThat(opened.startedAt(T0.plusSeconds(5)).attempts()).containsExactly(Attempt.begun(0, T0.plusSeconds(5)));
        assertThat(opened.startedAt(null)).isEqualTo(opened);
        assertThat(opened.end(T0.plusSeconds(9), "x", "y").startedAt(T0.plusSeconds(5)).attempts().get(0).startedAt())
                .as("an ended attempt is not reopened").isEqualTo(T0);
    }

    @Test
    void betweenAttemptsTheJobShowsRunningRestartingNeitherFinishedNorQueued() {
        JobStatus failed = new JobStatus(JobPhase.FAILED, "TrainerFailed", "trainer-0 exited", T0, T0.plusSeconds(1),
                T0.plusSeconds(30), 3, RoleCounts.of(0, List.of()), RoleCounts.of(1, List.of()), List.of());
        AttemptLedger ledger = new AttemptLedger(1, List.of(new Attempt(0, T0, T0.plusSeconds(30), "TrainerFailed", "x")));

        JobStatus shown = ledger.restartingShown(failed, "restart 1 of 2 in 10 s");

        assertThat(shown.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(shown.reason()).isEqualTo(RestartDecision.RESTARTING);
        assertThat(shown.message()).isEqualTo("restart 1 of 2 in 10 s");
        assertThat(shown.finishedAt()).isNull();
        assertThat(shown.queuePosition()).isNull();
        assertThat(shown.startedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(shown.restarts()).isEqualTo(1);
        assertThat(shown.attempts()).isEqualTo(ledger.attempts());
    }

    @Test
    void aStallFailsTheAttemptOnlyWhereRestartOnNamesItElseItWarns() {
        JobStatus running = new JobStatus(JobPhase.RUNNING, null, null, T0, T0, null, null,
                RoleCounts.of(0, List.of()), RoleCounts.of(1, List.of()), List.of());
        JobRequest stall = JobRequests.spec("max_restarts=1 restart_on=stall stall_timeout=1m").build();
        JobRequest warn = JobRequests.spec("stall_timeout=1m").build();
        Optional<String> silence = Optional.of("no trainer printed a line");

        JobStatus failed = StallJudge.shown(stall, running, silence, T0.plusSeconds(60));
        JobStatus warned = StallJudge.shown(warn, running, silence, T0.plusSeconds(60));

        assertThat(failed.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(failed.reason()).isEqualTo(StallWatch.STALLED);
        assertThat(failed.finishedAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(warned.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(warned.reason()).isEqualTo(StallWatch.STALLED);
        assertThat(warned.message()).isEqualTo(silence.get());
        assertThat(StallJudge.shown(stall, running, Optional.empty(), T0)).isSameAs(running);
        assertThat(StallJudge.failsTheAttempt(stall)).isTrue();
        assertThat(StallJudge.failsTheAttempt(warn)).isFalse();
    }
}
