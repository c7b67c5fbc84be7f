package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.Progress;
import io.paddlejobs.metrics.MetricPoint;
import io.paddlejobs.metrics.MetricsSnapshot;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The recorder against what a store refuses (the red team's PostgreSQL M2: a NUL byte in a log was
 * refused, taken for an unavailable store, and the job retried every 5 s for ever): on the embedded H2
 * file; {@link PostgresHistoryRecorderTest} runs the same on PostgreSQL, where the NUL was refused.
 */
@Tag("redteam")
class HistoryRecorderTest extends Recording {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void aLogWithNulBytesIsKeptWithTheNulReplaced() {
        backend.printing("step 1\0\0\rstep 2\n");
        JobKey key = submit("binary");
        backend.finish(key);

        await().atMost(DEADLINE).until(() -> history.keptLog(key, Role.TRAINER, 0).isPresent());
        assertThat(history.keptLog(key, Role.TRAINER, 0)).hasValue("step 1\uFFFD\uFFFD\rstep 2\n");
    }

    @Test
    void aWriteTheStoreRefusesIsNotRetriedAsIfTheStoreWereAway() throws Exception {
        JobKey steady = submit("steady");
        await().atMost(DEADLINE).until(() -> history.find(steady).isPresent());
        // A name longer than the store's column: refused whenever it is written.
        JobKey refused = new JobKey("team-b", "x".repeat(70));
        backend.submit(HistoryStores.plan(refused.namespace(), refused.name()));
        // Queued on the recorder's one thread after the refused job's write: once these are kept, that was tried.
        recorder.keepMetrics(steady, new MetricsSnapshot(1, 1, Map.of("loss", Map.of("trainer-0",
                List.of(new MetricPoint(1, 0.5, Instant.now(), 0)))), new Progress(1, 1L, 1.0, null, null, "trainer-0")));
        await().atMost(DEADLINE).until(() -> history.keptMetrics(steady).isPresent());

        assertThat(recorder.waitingForTheStore()).as("jobs waiting for the store to come back").isZero();
        assertThat(history.find(refused)).isEmpty();
    }

    private JobKey submit(String name) {
        JobPlan plan = HistoryStores.plan("team-b", name);
        history.submitted(plan);
        backend.submit(plan);
        return new JobKey("team-b", name);
    }
}
