package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.record.JobRecordStore;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.ExecProcess;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.FailingRank;
import io.paddlejobs.testing.MovableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code debug_hold} on the local backend with real processes: a two-trainer collective job whose trainer 1 writes a
 * file and exits 3 while trainer 0 listens and runs on. The failed attempt is held, commands run in either trainer as
 * it ran (confined as where tenants share the machine, where bubblewrap works), and the hold ends as the attempt would
 * have: by a cancel, by its time (moved on a clock, not waited for), or by a restart of the service.
 */
class DebugHoldTest {

    private static final RestartBackoff SHORT = new RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(1));
    private static final List<String> LOOK = List.of("sh", "-c", "pwd; cat note.txt; echo \"$PADDLE_TRAINER_ID\"");

    @TempDir
    Path dataRoot;

    @Test
    void aFailedAttemptIsHeldWithItsSiblingRunningCommandsRunInEitherAsItRanAndACancelEndsIt() throws Exception {
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot), true, SHORT,
                MovableClock.runningFromNow())) {
            JobKey key = submit(local, "held", "debug_hold=10m");
            Job held = awaitHeld(local, "held", 0);

            assertThat(held.status().phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(held.status().message()).contains("trainer-1 exited with code 3", "held until",
                    "paddle-jobs exec held --role trainer --index 1 -- sh", "then the job fails");
            assertThat(held.status().replicas()).extracting(ReplicaStatus::id, ReplicaStatus::state).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("trainer-0", ReplicaState.RUNNING),
                    org.assertj.core.groups.Tuple.tuple("trainer-1", ReplicaState.FAILED));

            Ran inFailed = run(local.backend.exec(key, Role.TRAINER, 1, LOOK).orElseThrow());
            assertThat(inFailed.exitCode()).isZero();
            assertThat(inFailed.output().lines().toList()).hasSize(3).satisfies(lines -> {
                assertThat(lines.get(0)).endsWith("/trainer-1");
                assertThat(lines.get(1)).isEqualTo("written-by-1");
                assertThat(lines.get(2)).isEqualTo("1");
            });
            Ran inSibling = run(local.backend.exec(key, Role.TRAINER, 0,
                    List.of("sh", "-c", "cat note.txt; echo \"$PADDLE_TRAINER_ID\"; exit 7")).orElseThrow());
            assertThat(inSibling.output()).isEqualTo("written-by-0\n0\n");
            assertThat(inSibling.exitCode()).isEqualTo(7);

            ExecProcess lingering = local.backend.exec(key, Role.TRAINER, 1, List.of("sleep", "3404")).orElseThrow();
            local.backend.cancel(key);

            assertThat(local.job("held").status().phase()).isEqualTo(JobPhase.CANCELLED);
            assertThat(lingering.exit().get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("stopped with the hold").isNotZero();
            await().atMost(DEADLINE).until(() -> !LocalBackendFixture.anyProcessWith("sleep 3404"));
            assertThatThrownBy(() -> local.backend.exec(key, Role.TRAINER, 0, LOOK))
                    .isInstanceOf(JobConflictException.class).hasMessageContaining("not held now");
        }
    }

    @Test
    void aHoldThatRunsOutGoesOnAsTheFailureWouldHaveRestartingThenFailing() {
        var clock = MovableClock.runningFromNow();
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot), false, SHORT, clock)) {
            submit(local, "again", "debug_hold=10m max_restarts=1");
            assertThat(awaitHeld(local, "again", 0).status().message()).contains("then the job restarts (restart 1");

            clock.advance(Duration.ofMinutes(10));
            Job heldAgain = awaitHeld(local, "again", 1);

            assertThat(heldAgain.status().attempts()).extracting(Attempt::number, Attempt::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "TrainerFailed"),
                            org.assertj.core.groups.Tuple.tuple(1, null));
            assertThat(heldAgain.status().message()).contains("then the job fails");

            clock.advance(Duration.ofMinutes(10));
            Job failed = local.awaitPhase("again", JobPhase.FAILED);

            assertThat(failed.status().reason()).isEqualTo("TrainerFailed");
            assertThat(failed.status().message()).startsWith("failed after 1 restart: trainer-1 exited with code 3");
        }
    }

    @Test
    void aServiceRestartDuringAHoldEndsItAsItsAttemptWouldHaveEnded() {
        JobRecord heldRecord;
        try (var before = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(before, "interrupted", "debug_hold=10m");
            awaitHeld(before, "interrupted", 0);
            heldRecord = before.store().loadAll().stream().map(JobRecordStore.Stored::record)
                    .filter(r -> r.request().name().equals("interrupted")).findFirst().orElseThrow();
        }
        // What a kill -9 leaves: the record as it was written during the hold (a stop fails the job).
        assertThat(heldRecord.hold()).isNotNull();
        new LocalBackendFixture(dataRoot, SHORT).store().save(heldRecord);

        try (var after = new LocalBackendFixture(dataRoot, SHORT)) {
            Job failed = after.awaitPhase("interrupted", JobPhase.FAILED);

            assertThat(failed.status().reason()).as("the held failure, not the restart").isEqualTo("TrainerFailed");
            assertThat(failed.status().message()).startsWith("trainer-1 exited with code 3");
        }
    }

    @Test
    void aServiceStoppedDuringAHoldRestartsTheJobAtItsNextStartAsTheFailureWouldHave() {
        try (var before = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(before, "stopped", "debug_hold=10m max_restarts=1");
            awaitHeld(before, "stopped", 0);
        }
        try (var after = new LocalBackendFixture(dataRoot, SHORT)) {
            Job heldAgain = awaitHeld(after, "stopped", 1);

            assertThat(heldAgain.status().attempts().get(0).reason()).as("the held failure, not the stop")
                    .isEqualTo("TrainerFailed");
        }
    }

    private static JobKey submit(LocalBackendFixture local, String name, String spec) {
        local.backend.submit(local.plan(JobRequests.named(name, FailingRank.entryPoint()).spec(spec).trainers(2)
                .mode(JobMode.COLLECTIVE).build()));
        return new JobKey(LocalBackendFixture.NAMESPACE, name);
    }

    /** Waits until attempt {@code attempt} of the job is held. */
    private static Job awaitHeld(LocalBackendFixture local, String name, int attempt) {
        await().atMost(DEADLINE).until(() -> {
            var status = local.job(name).status();
            return status.restarts() == attempt && "Held".equals(status.reason()) || status.phase().isFinished();
        });
        Job job = local.job(name);
        assertThat(job.status().reason()).as("%s", job.status()).isEqualTo("Held");
        return job;
    }

    private record Ran(String output, int exitCode) {
    }

    private static Ran run(ExecProcess exec) throws Exception {
        String output = new String(exec.output().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(output, exec.exit().get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
    }
}
