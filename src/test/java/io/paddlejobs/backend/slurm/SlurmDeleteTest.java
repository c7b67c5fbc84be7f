package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.BatchJob;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.backend.slurm.state.SlurmStops;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.JobKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * A delete of a running Slurm job answers once Slurm was told to cancel it: it asks Slurm nothing more on
 * the request's thread. Before, it asked {@code squeue} every 100 ms, with a sleep between, for up to 20 s
 * (50 deletes at once: 500 {@code squeue} a second). Its record goes at once; the rest of its files once
 * the poller sees Slurm run nothing of it.
 */
class SlurmDeleteTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");

    @TempDir
    Path jobsDir;

    @Test
    void aDeleteAnswersWithoutWaitingForSlurmAndItsFilesGoOnceThePollerSeesTheJobStopped() throws Exception {
        StoppingSlurm slurm = new StoppingSlurm();
        var jobs = new ConcurrentHashMap<JobKey, SlurmJob>();
        var records = new SlurmRecords(new JobDirectories(jobsDir, jobsDir.resolveSibling("storage")),
                JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                        .addModule(new PlanningJsonModule()).build());
        var stops = new SlurmStops(jobs, slurm, records, Clock.fixed(T0, ZoneOffset.UTC), key -> { },
                Duration.ofMinutes(1));
        try {
            SlurmJob running = SlurmRestartsDecisionTest.running("");
            JobKey key = running.key();
            jobs.put(key, running);
            records.save(running);
            slurm.running.add(running.slurmId());

            assertThat(stops.delete(key)).isTrue();

            assertThat(slurm.cancels.get()).isEqualTo(1);
            assertThat(slurm.lists.get()).as("Slurm not asked on the request's thread whether it has stopped").isZero();
            assertThat(jobs).isEmpty();
            assertThat(records.files(key).record()).as("a restart does not read it back").doesNotExist();
            Path dir = records.files(key).record().getParent();
            assertThat(dir).as("its tasks may still write there").exists();

            stops.removeStopped(slurm.jobs()); // the poller's look: it still runs
            assertThat(dir).exists();
            slurm.running.clear();
            stops.removeStopped(slurm.jobs()); // the next one: it has stopped
            assertThat(Files.exists(dir)).isFalse();
            stops.awaitRemoved(key); // a submit of its name goes on at once
        } finally {
            stops.close();
        }
    }

    /** A Slurm whose jobs run until the test says they stopped. */
    private static final class StoppingSlurm implements SlurmClient {
        final List<Long> running = new ArrayList<>();
        final AtomicInteger cancels = new AtomicInteger();
        final AtomicInteger lists = new AtomicInteger();

        @Override
        public long submit(BatchJob job) {
            return 8;
        }

        @Override
        public synchronized List<SlurmJobInfo> jobs() {
            lists.incrementAndGet();
            return running.stream().map(id -> new SlurmJobInfo(id, 0, 0, "paddlejobs.default.job", "RUNNING", "None", 0, 0,
                    "n1", 0, T0, null)).toList();
        }

        @Override
        public void cancel(long jobId) {
            cancels.incrementAndGet();
        }

        @Override
        public void terminate(long jobId) {
        }
    }
}
