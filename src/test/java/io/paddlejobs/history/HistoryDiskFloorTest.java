package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * Below the free-space floor ({@code paddlejobs.min-free-space}) of the embedded history's disk, a finished job is
 * kept without its logs, the history's one part that grows by megabytes a job; its record and status are kept.
 */
class HistoryDiskFloorTest extends Recording {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Override
    DiskFloor floor() {
        return new DiskFloor(dir, DataSize.ofTerabytes(1_000_000)); // more than any disk has free
    }

    @Test
    void belowTheFloorAFinishedJobIsKeptWithoutItsLogs() throws InterruptedException {
        backend.printing("step 1\nstep 2\n");
        JobPlan plan = HistoryStores.plan("team-b", "crowded");
        history.submitted(plan);
        backend.submit(plan);
        JobKey key = new JobKey("team-b", "crowded");
        backend.finish(key);
        await().atMost(DEADLINE).until(() -> history.find(key).filter(job -> job.status().phase().isFinished()).isPresent());

        stopRecorder(); // every log the recorder was to keep is kept by now

        assertThat(history.find(key)).hasValueSatisfying(job -> assertThat(job.status().phase()).isEqualTo(JobPhase.SUCCEEDED));
        assertThat(history.keptLog(key, Role.TRAINER, 0)).isEmpty();
    }
}
