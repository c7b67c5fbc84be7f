package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A request's {@code max_run_time} on the local backend: past it the job is stopped and fails, saying why. */
class MaxRunTimeTest {

    @TempDir
    Path dataRoot;

    @Test
    void jobRunningPastItsMaxRunTimeIsStoppedAndFailsSayingWhy() {
        String marker = "sleep 3301";
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.backend.submit(local.plan(limited("too-long", marker, Duration.ofSeconds(2))));
            local.awaitPhase("too-long", JobPhase.RUNNING);

            Job job = local.awaitPhase("too-long", JobPhase.FAILED);

            assertThat(job.status().reason()).isEqualTo("MaxRunTimeExceeded");
            assertThat(job.status().message()).isEqualTo("ran longer than max_run_time (2 s); its replicas were stopped");
            assertThat(Duration.between(job.status().startedAt(), job.status().finishedAt()))
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
            assertThat(job.status().replicas()).allSatisfy(r -> assertThat(r.state()).isEqualTo(ReplicaState.STOPPED));
            await().atMost(DEADLINE).until(() -> !anyProcessWith(marker));
        }
        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            assertThat(after.job("too-long").status().reason()).as("as recorded").isEqualTo("MaxRunTimeExceeded");
        }
    }

    @Test
    void jobEndingWithinItsMaxRunTimeSucceeds() {
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.backend.submit(local.plan(limited("quick", "true", Duration.ofMinutes(10))));

            Job job = local.awaitPhase("quick", JobPhase.SUCCEEDED);

            assertThat(job.status().reason()).isEqualTo("Completed");
        }
    }

    /** One pserver and one trainer running {@code entryPoint}, limited to {@code maxRunTime}. */
    private static JobRequest limited(String name, String entryPoint, Duration maxRunTime) {
        return JobRequests.named(name, entryPoint).trainers(1).pservers(1).maxRunTime(maxRunTime).build();
    }
}
