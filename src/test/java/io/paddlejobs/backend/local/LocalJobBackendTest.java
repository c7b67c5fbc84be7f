package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local backend's lifecycle rules, with real processes. */
class LocalJobBackendTest {

    @TempDir
    Path dataRoot;

    LocalBackendFixture local;

    @BeforeEach
    void start() {
        local = new LocalBackendFixture(dataRoot, 4);
    }

    @AfterEach
    void stop() {
        local.close();
    }

    @Test
    void replicasGetThePlannedEnvironmentAndTheirOwnLogs() throws Exception {
        local.submit("env", "echo \"$TRAINING_ROLE $PADDLE_TRAINER_ID $POD_IP $PADDLE_PSERVERS_IP_PORT_LIST\"", 2, 2);
        Job job = local.awaitPhase("env", JobPhase.SUCCEEDED);

        int port = job.plan().ports().first();
        String endpoints = "127.0.0.1:%d,127.0.0.2:%d".formatted(port, port);
        assertThat(local.log("env", Role.TRAINER, 1)).isEqualTo("TRAINER 1 127.1.0.2 " + endpoints + "\n");
        assertThat(local.log("env", Role.PSERVER, 1)).isEqualTo("PSERVER  127.0.0.2 " + endpoints + "\n");
    }

    @Test
    void everyChangeReadersCanSeeIsToldAsItHappensAndSoIsTheDelete() {
        List<Optional<JobPhase>> told = new CopyOnWriteArrayList<>();
        local.backend.onChange(key -> told.add(local.backend.find(key).map(job -> job.status().phase())));

        local.submit("told", "true", 1, 1);
        local.awaitPhase("told", JobPhase.SUCCEEDED);
        // A reader may see the new snapshot a moment before the listener, called right after the change, is told.
        await().atMost(DEADLINE).until(() -> told.contains(Optional.of(JobPhase.SUCCEEDED)));

        // Told under the job's lock, right after its snapshot changed: each look sees that change.
        assertThat(told.stream().flatMap(Optional::stream).toList())
                .containsSubsequence(JobPhase.PENDING, JobPhase.RUNNING, JobPhase.SUCCEEDED);
        local.backend.delete(new JobKey(LocalBackendFixture.NAMESPACE, "told"));
        assertThat(told.get(told.size() - 1)).as("the last thing told: it is gone").isEmpty();
    }

    @Test
    void eachJobGetsItsOwnPortBlock() {
        Job first = local.submit("ports-a", "true", 1, 1);
        Job second = local.submit("ports-b", "true", 1, 1);

        assertThat(first.plan().ports().first()).isNotEqualTo(second.plan().ports().first());
        assertThat(first.plan().derivations()).anyMatch(d -> d.field().equals("port"));
    }

    @Test
    void replicasStillStartingWhenTheJobFailsAreStoppedToo() {
        // Trainer 0 fails at once, while the other eleven replicas may still be starting.
        String marker = "sleep 3105";
        local.submit("early-fail", "if [ \"$PADDLE_TRAINER_ID\" = 0 ]; then exit 4; fi; " + marker, 4, 8);

        Job job = local.awaitPhase("early-fail", JobPhase.FAILED);

        assertThat(job.status().message()).contains("trainer-0", "exited with code 4");
        await().atMost(DEADLINE).until(() -> !anyProcessWith(marker));
    }

    @Test
    void aFailedReplicasLastWordsAreItsJobsReason() {
        // What a user would otherwise find only at the end of trainer 0's log: Python's own words.
        local.submit("missing-script", "python3 no_such_train.py", 0, 1);
        local.submit("traceback", "echo 'PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.5}'; "
                + "python3 -c \"raise ValueError('learning_rate must be positive, not -0.1')\"", 0, 1);

        assertThat(local.awaitPhase("missing-script", JobPhase.FAILED).status().message())
                .contains("trainer-0 exited with code 2: \"", "can't open file", "no_such_train.py")
                .doesNotContain("a usage error");
        assertThat(local.awaitPhase("traceback", JobPhase.FAILED).status().message())
                .contains("trainer-0 exited with code 1: \"ValueError: learning_rate must be positive, not -0.1\"");
    }

    @Test
    void killedPserverFailsTheJob() {
        String marker = "sleep 3103";
        local.submit("killed", marker, 1, 1);
        local.awaitPhase("killed", JobPhase.RUNNING);
        long pid = local.pidOf("killed", "pserver-0");

        ProcessHandle.of(pid).orElseThrow().destroyForcibly();

        Job job = local.awaitPhase("killed", JobPhase.FAILED);
        assertThat(job.status().reason()).isEqualTo("PserverFailed");
        assertThat(job.status().message()).contains("pserver-0", "signal 9");
        await().atMost(DEADLINE).until(() -> !anyProcessWith(marker));
    }

    @Test
    void cancelStopsEveryProcessAndKeepsTheJob() {
        String marker = "sleep 3104";
        local.submit("cancel-me", marker + " & wait", 2, 2);
        local.awaitPhase("cancel-me", JobPhase.RUNNING);
        assertThat(anyProcessWith(marker)).isTrue();

        Job cancelled = local.backend.cancel(new JobKey("default", "cancel-me")).orElseThrow();

        assertThat(cancelled.status().phase()).isEqualTo(JobPhase.CANCELLED);
        assertThat(anyProcessWith(marker)).as("no process of the job is left once cancel returns").isFalse();
        assertThat(local.job("cancel-me").status().phase()).isEqualTo(JobPhase.CANCELLED);
    }

    @Test
    void deleteRemovesTheRecordAndFiles() {
        local.submit("gone", "true", 1, 1);
        local.awaitPhase("gone", JobPhase.SUCCEEDED);
        Path dir = local.store().jobDir(new JobKey("default", "gone"));
        assertThat(dir.resolve("job.json")).exists();

        assertThat(local.backend.delete(new JobKey("default", "gone"))).isTrue();

        assertThat(local.backend.find(new JobKey("default", "gone"))).isEmpty();
        assertThat(Files.exists(dir)).isFalse();
    }

    @Test
    void jobWhoseReplicaCannotStartFailsAndFreesItsSlot() {
        try (var single = new LocalBackendFixture(dataRoot.resolve("single"), 1)) {
            // The kernel refuses a NUL in an environment value, so this process cannot be started.
            single.backend.submit(single.plan(JobRequests.named("broken", "true").trainers(1).pservers(1)
                    .env(Map.of("BAD", "a\u0000b")).build()));

            assertThat(single.job("broken").status().phase()).isEqualTo(JobPhase.FAILED);
            assertThat(single.job("broken").status().reason()).isEqualTo("StartFailed");
            single.submit("after", "true", 1, 1);
            single.awaitPhase("after", JobPhase.SUCCEEDED);
        }
    }

    @Test
    void statusAndListAreServedFromMemoryNotFromTheRecordsOnDisk() {
        local.submit("in-memory", "true", 1, 1);
        local.awaitPhase("in-memory", JobPhase.SUCCEEDED);

        local.store().delete(new JobKey("default", "in-memory"));

        assertThat(local.job("in-memory").status().phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(local.backend.list("default")).extracting(j -> j.plan().name()).contains("in-memory");
    }
}
