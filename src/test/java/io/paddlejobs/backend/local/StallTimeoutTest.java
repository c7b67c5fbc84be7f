package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.RendezvousGateTest;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stall_timeout} on the local backend, with real processes: every running trainer silent for it is a
 * warning on the running job, or, under {@code restart_on: stall}, a failed attempt that is restarted.
 */
class StallTimeoutTest {

    private static final RestartBackoff SHORT = new RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(1));

    @TempDir
    Path dataRoot;

    @Test
    void trainersSilentForTheTimeoutShowStalledNamingThemAndTheWarningGoesWhenOnePrintsAgain() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            Path go = dataRoot.resolve("go");
            Path stop = dataRoot.resolve("stop");
            // Both print once and fall silent until the test says go; then they print until it says stop. Trainer 0
            // listens on its master port, as Paddle's store does: the other trainer starts once it does.
            String listen = "if [ \"$RANK\" = 0 ]; then " + RendezvousGateTest.listenOnMasterPort(dataRoot.resolve("listening"))
                    + " & fi; ";
            submit(local, "hung", "stall_timeout=2s", 2, listen + "echo step-1; until [ -e " + go + " ]; do sleep 0.1; done; "
                    + "until [ -e " + stop + " ]; do echo alive; sleep 0.2; done");

            JobStatus stalled = awaitReason(local, "hung", "Stalled");

            assertThat(stalled.phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(stalled.message()).startsWith("no trainer printed a line or reported a metric for 2 s (stall_timeout): ")
                    .contains("trainer-0 since ", "trainer-1 since ");

            Files.createFile(go);
            await().atMost(DEADLINE).until(() -> local.job("hung").status().reason() == null);
            assertThat(local.job("hung").status().phase()).isEqualTo(JobPhase.RUNNING);
            Files.createFile(stop);
            Job done = local.awaitPhase("hung", JobPhase.SUCCEEDED);
            assertThat(done.status().restarts()).as("a warning restarts nothing").isZero();
        }
    }

    /**
     * A launcher waiting for its master, or a rank whose all-reduce hangs, may print all the while: once a
     * trainer has reported steps, only a new step is progress.
     */
    @Test
    void aTrainerThatReportedStepsAndNowOnlyPrintsIsStalledSinceItsLastNewStep() {
        try (var local = new LocalBackendFixture(dataRoot, SHORT);
             var metrics = new io.paddlejobs.metrics.MetricsCollector(local.backend,
                     new io.paddlejobs.metrics.MetricsProperties(1000, 64, 64, 200), Duration.ofMillis(50),
                     java.time.Clock.systemUTC(), io.paddlejobs.metrics.MetricsArchive.NONE)) {
            submit(local, "spinning", "stall_timeout=2s", 1, "for s in 1 2 3; do "
                    + "echo \"PADDLEJOBS_METRICS {\\\"step\\\": $s, \\\"loss\\\": 1}\"; sleep 0.2; done; "
                    + "while true; do echo master not ready; sleep 0.2; done");

            JobStatus stalled = awaitReason(local, "spinning", "Stalled");

            assertThat(stalled.phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(stalled.message()).contains("trainer-0 since ", "(its last new step)");
            assertThat(local.log("spinning", Role.TRAINER, 0)).as("it printed all the while").contains("master not ready");
            local.backend.cancel(new io.paddlejobs.job.JobKey(LocalBackendFixture.NAMESPACE, "spinning"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void underRestartOnStallAStalledAttemptIsRestartedAndTheNextOneResumes() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(local, "hung-once", "stall_timeout=2s max_restarts=2 restart_on=stall", 1,
                    "echo attempt-$PADDLE_JOB_RESTART_COUNT; if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exec sleep 3501; fi");

            Job done = local.awaitPhase("hung-once", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().attempts()).extracting(Attempt::reason).containsExactly("Stalled", "Completed");
            assertThat(done.status().attempts().get(0).message()).contains("trainer-0 since ");
            assertThat(local.log("hung-once", Role.TRAINER, 0)).contains("attempt-1");
            await().atMost(DEADLINE).until(() -> !LocalBackendFixture.anyProcessWith("sleep 3501"));
        }
    }

    @Test
    void underRestartOnStallAJobThatStallsEveryTimeFailsStalledAfterItsRestarts() {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(local, "always-hung", "stall_timeout=1s max_restarts=1 restart_on=stall", 1, "exec sleep 3502");

            Job failed = local.awaitPhase("always-hung", JobPhase.FAILED);

            assertThat(failed.status().reason()).isEqualTo("Stalled");
            assertThat(failed.status().message()).startsWith("failed after 1 restart: no trainer printed a line");
            await().atMost(DEADLINE).until(() -> !LocalBackendFixture.anyProcessWith("sleep 3502"));
        }
    }

    @Test
    void aTrainerThatKeepsPrintingIsNeverStalled() {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            // Four seconds of a line every 0.2 s, under a 1 s timeout that a silent trainer would miss four times.
            submit(local, "chatty", "stall_timeout=1s max_restarts=1 restart_on=stall", 1,
                    "for i in $(seq 20); do echo step-$i; sleep 0.2; done");

            Job done = local.awaitPhase("chatty", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isZero();
        }
    }

    private static void submit(LocalBackendFixture local, String name, String spec, int trainers, String entryPoint) {
        local.backend.submit(local.plan(JobRequests.named(name, entryPoint).spec(spec).trainers(trainers)
                .mode(JobMode.COLLECTIVE).build()));
    }

    private static JobStatus awaitReason(LocalBackendFixture local, String name, String reason) {
        await().atMost(DEADLINE).until(() -> reason.equals(local.job(name).status().reason())
                || local.job(name).status().phase().isFinished());
        JobStatus status = local.job(name).status();
        assertThat(status.reason()).as("status: %s", status).isEqualTo(reason);
        return status;
    }
}
