package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A normal stop and start of the service, and what it does to the queue. */
class GracefulRestartTest {

    @TempDir
    Path dataRoot;

    @Tag("redteam") // Red team round 1, M6: a restart wiped out the queue.
    @Test
    void aNormalStopKeepsQueuedJobsQueuedAndTheyRunAfterTheStart() {
        try (var before = new LocalBackendFixture(dataRoot, 1)) {
            before.submit("busy", "sleep 3301", 1, 1);
            before.submit("queued-1", "true", 1, 1);
            before.submit("queued-2", "true", 1, 1);
            assertThat(before.job("queued-2").status().queuePosition()).isEqualTo(2);
        }
        await().atMost(DEADLINE).until(() -> !anyProcessWith("sleep 3301"));

        try (var after = new LocalBackendFixture(dataRoot, 1)) {
            assertThat(after.job("busy").status().phase()).isEqualTo(JobPhase.FAILED);
            assertThat(after.job("busy").status().message()).contains("delete it and submit it again");
            after.awaitPhase("queued-1", JobPhase.SUCCEEDED);
            after.awaitPhase("queued-2", JobPhase.SUCCEEDED);
            assertThat(after.job("queued-2").status().startedAt()).isNotNull();
        }
    }

    @Test
    void queuePositionsFollowCancelsAndAreNotWrittenOnEveryStart() throws Exception {
        try (var local = new LocalBackendFixture(dataRoot, 1)) {
            local.submit("head", "sleep 3302", 1, 1);
            for (int i = 1; i <= 5; i++) {
                local.submit("q" + i, "true", 1, 1);
            }
            Path last = dataRoot.resolve("jobs/default/q5/job.json");
            long written = Files.getLastModifiedTime(last).toMillis();
            String before = Files.readString(last);

            local.backend.cancel(new JobKey("default", "q2"));
            local.backend.cancel(new JobKey("default", "q3"));

            assertThat(local.job("q5").status().queuePosition()).isEqualTo(3);
            assertThat(local.job("q5").status().message()).contains("position 3");
            assertThat(Files.readString(last)).as("a queued job's record is not rewritten").isEqualTo(before);
            assertThat(Files.getLastModifiedTime(last).toMillis()).isEqualTo(written);
            local.backend.cancel(new JobKey("default", "head"));
            local.awaitPhase("q5", JobPhase.SUCCEEDED);
            await().atMost(DEADLINE).until(() -> !anyProcessWith("sleep 3302"));
        }
    }
}
