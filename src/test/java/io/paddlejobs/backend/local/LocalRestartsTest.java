package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.record.JobRecordStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/request.md, "Surviving failures", on the local backend: whole-job restarts with real processes. Each replica
 * appends a line to {@code starts} in its checkpoint directory, which is how a test counts attempts.
 */
class LocalRestartsTest {

    private static final RestartBackoff SHORT = new RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(1));
    /** Records its start, with the attempt it is, where every attempt's checkpoint directory is the same. */
    private static final String COUNT_START = "echo \"$PADDLE_JOB_RESTART_COUNT\" >> \"$PADDLE_JOB_CHECKPOINT_DIR/starts\"; ";

    @TempDir
    Path dataRoot;

    @Test
    void aTrainerThatFailsOnceIsRestartedAndResumesFromItsCheckpoint() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            Job submitted = submit(local, "flaky", "max_restarts=3", 0, COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then echo step-7 > \"$PADDLE_JOB_CHECKPOINT_DIR/ckpt\"; exit 3; fi;"
                    + " echo resumed-from-$(cat \"$PADDLE_JOB_CHECKPOINT_DIR/ckpt\")");

            Job done = local.awaitPhase("flaky", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().replicas()).as("the job's restart started every replica again")
                    .extracting(io.paddlejobs.job.ReplicaStatus::restarts).containsOnly(1);
            assertThat(done.status().attempts()).extracting(Attempt::number, Attempt::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "TrainerFailed"),
                            org.assertj.core.groups.Tuple.tuple(1, "Completed"));
            assertThat(done.status().attempts().get(0).message()).contains("trainer-0 exited with code 3");
            assertThat(local.log("flaky", Role.TRAINER, 0)).contains("resumed-from-step-7");
            assertThat(starts(local, "flaky")).containsExactly("0", "1");
            assertThat(done.plan().ports().first()).as("the same ports").isEqualTo(submitted.plan().ports().first());
        }
    }

    @Test
    void theCrashARestartWasForStaysReadableInItsAttemptsLog() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(local, "crashed-once", "max_restarts=1", 0, COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then echo 'Traceback (most recent call last):';"
                    + " echo 'RuntimeError: CUDA error: an illegal memory access' >&2; exit 1; fi; echo attempt-1-ran");

            Job done = local.awaitPhase("crashed-once", JobPhase.SUCCEEDED);

            assertThat(done.status().attempts().get(0).message())
                    .contains("exited with code 1: \"RuntimeError: CUDA error: an illegal memory access\"")
                    .endsWith("See its log: role=trainer&index=0&attempt=0");
            JobKey key = new JobKey(LocalBackendFixture.NAMESPACE, "crashed-once");
            var earlier = new java.io.ByteArrayOutputStream();
            assertThat(local.backend.writeEarlierLog(key, Role.TRAINER, 0, 0, null, earlier)).isTrue();
            assertThat(earlier.toString()).contains("Traceback", "RuntimeError: CUDA error").doesNotContain("attempt-1-ran");
            assertThat(local.log("crashed-once", Role.TRAINER, 0)).isEqualTo("attempt-1-ran\n");
            var tail = new java.io.ByteArrayOutputStream();
            local.backend.writeEarlierLog(key, Role.TRAINER, 0, 0, 1, tail);
            assertThat(tail.toString()).isEqualTo("RuntimeError: CUDA error: an illegal memory access\n");
        }
    }

    @Test
    void aTrainerThatAlwaysFailsFailsAfterExactlyMaxRestartsSayingSo() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(local, "broken", "max_restarts=2", 0, COUNT_START + "exit 1");

            Job failed = local.awaitPhase("broken", JobPhase.FAILED);

            assertThat(failed.status().restarts()).isEqualTo(2);
            assertThat(failed.status().reason()).isEqualTo("TrainerFailed");
            assertThat(failed.status().message()).startsWith("failed after 2 restarts: trainer-0 exited with code 1");
            assertThat(failed.status().attempts()).hasSize(3).allSatisfy(a -> assertThat(a.finishedAt()).isNotNull());
            assertThat(starts(local, "broken")).containsExactly("0", "1", "2");
        }
    }

    @Test
    void restartOnInfrastructureDoesNotRetryAnExitOfTheProgramItself() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(local, "own-exit", "max_restarts=2 restart_on=infrastructure", 0, COUNT_START + "exit 1");

            Job failed = local.awaitPhase("own-exit", JobPhase.FAILED);

            assertThat(failed.status().restarts()).isZero();
            assertThat(failed.status().message()).startsWith("trainer-0 exited with code 1");
            assertThat(starts(local, "own-exit")).containsExactly("0");
        }
    }

    @Test
    void restartOnInfrastructureRetriesAReplicaKilledWithSignal9() throws Exception {
        try (var local = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(local, "killed", "max_restarts=2 restart_on=infrastructure", 0, COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exec sleep 120; fi");
            await().atMost(LocalBackendFixture.DEADLINE).until(() -> starts(local, "killed").size() == 1);

            new ProcessBuilder("kill", "-9", Long.toString(local.pidOf("killed", "trainer-0"))).start().waitFor();
            Job done = local.awaitPhase("killed", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().attempts().get(0).message()).contains("killed by signal 9");
        }
    }

    @Test
    void aCancelDuringTheBackoffEndsTheJobCancelledAndNoAttemptFollowsAndTheEndedAttemptsLogIsItsEarlierLog() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, new RestartBackoff(Duration.ofSeconds(2), Duration.ofSeconds(2)))) {
            submit(local, "waiting", "max_restarts=3", 0, COUNT_START + "echo ended-attempt-$PADDLE_JOB_RESTART_COUNT; exit 1");
            await().atMost(LocalBackendFixture.DEADLINE)
                    .until(() -> "Restarting".equals(local.job("waiting").status().reason()));
            assertThat(local.job("waiting").status().phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(local.job("waiting").status().message()).contains("restart 1 of 3 in 2 s");
            // The restart is counted, the ended attempt's log not yet moved aside: it is attempt 0's all the same.
            var ended = new java.io.ByteArrayOutputStream();
            local.backend.writeEarlierLog(new JobKey(LocalBackendFixture.NAMESPACE, "waiting"), Role.TRAINER, 0, 0, null, ended);
            assertThat(ended.toString()).isEqualTo("ended-attempt-0\n");

            local.backend.cancel(new JobKey(LocalBackendFixture.NAMESPACE, "waiting"));

            assertThat(local.job("waiting").status().phase()).isEqualTo(JobPhase.CANCELLED);
            // Past the end of the backoff, still only the first attempt ran.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> starts(local, "waiting").size() == 1);
            assertThat(local.job("waiting").status().restarts()).isEqualTo(1);
        }
    }

    @Test
    void aServiceKilledDuringTheBackoffStartsTheNextAttemptOnceWithTheCountItHad() throws IOException {
        JobRecord midRestart;
        try (var before = new LocalBackendFixture(dataRoot, new RestartBackoff(Duration.ofSeconds(3), Duration.ofSeconds(3)))) {
            submit(before, "survivor", "max_restarts=3", 0, COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exit 1; fi");
            await().atMost(LocalBackendFixture.DEADLINE)
                    .until(() -> "Restarting".equals(before.job("survivor").status().reason()));
            midRestart = record(before, "survivor");
        }
        // What a kill -9 leaves: the record as it was written during the backoff (a stop would have failed the job).
        assertThat(midRestart.restartAt()).isNotNull();
        new LocalBackendFixture(dataRoot, SHORT).store().save(midRestart);

        try (var after = new LocalBackendFixture(dataRoot, SHORT)) {
            Job done = after.awaitPhase("survivor", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(starts(after, "survivor")).containsExactly("0", "1");
        }
    }

    @Test
    void aServiceKilledWhileAnAttemptRanStopsItAndStartsExactlyOneMore() throws Exception {
        JobRecord running;
        try (var before = new LocalBackendFixture(dataRoot, SHORT)) {
            submit(before, "interrupted", "max_restarts=2", 0, COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exec sleep 3402; fi");
            await().atMost(LocalBackendFixture.DEADLINE).until(() -> starts(before, "interrupted").size() == 1);
            running = record(before, "interrupted");
            // A kill -9 of the service leaves its replica running: keep one alive for the next start to find.
            Process leftover = new ProcessBuilder("setsid", "sh", "-c", "exec sleep 3403").start();
            running = new JobRecord(running.request(), running.namespace(), running.port(), running.status(),
                    java.util.Map.of("trainer-0", new ReplicaProcess.ProcessRef(leftover.pid(),
                            leftover.toHandle().info().startInstant().orElse(null))), null);
        }
        new LocalBackendFixture(dataRoot, SHORT).store().save(running);

        try (var after = new LocalBackendFixture(dataRoot, SHORT)) {
            Job done = after.awaitPhase("interrupted", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().attempts().get(0).reason()).isEqualTo("ServiceRestarted");
            assertThat(starts(after, "interrupted")).containsExactly("0", "1");
            assertThat(LocalBackendFixture.anyProcessWith("sleep 3403")).isFalse();
        }
    }

    private static Job submit(LocalBackendFixture local, String name, String spec, int pservers, String entryPoint) {
        JobPlan plan = local.plan(JobRequests.named(name, entryPoint).spec(spec).trainers(1).pservers(pservers == 0 ? null : pservers)
                .mode(pservers == 0 ? io.paddlejobs.planning.JobMode.COLLECTIVE : null).build());
        return local.backend.submit(plan);
    }

    private static List<String> starts(LocalBackendFixture local, String name) throws IOException {
        Path starts = dataRoot(local).resolve("checkpoints/default").resolve(name).resolve("starts");
        return Files.exists(starts) ? Files.readAllLines(starts) : List.of();
    }

    private static Path dataRoot(LocalBackendFixture local) {
        return local.dataRoot;
    }

    private static JobRecord record(LocalBackendFixture local, String name) {
        return local.store().loadAll().stream().map(JobRecordStore.Stored::record)
                .filter(r -> r.request().name().equals(name)).findFirst().orElseThrow();
    }
}
