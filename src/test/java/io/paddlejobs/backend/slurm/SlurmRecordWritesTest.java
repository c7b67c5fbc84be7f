package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.BatchJob;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.state.NextAttempts;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.backend.slurm.state.SlurmRestarts;
import io.paddlejobs.backend.slurm.state.SlurmStops;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.attempt.Ending;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * A delete racing a writer of the job's record (the next attempt's submit, a cancel): the record is
 * written under the key's lock the delete takes, so the delete waits for it and leaves nothing of the
 * job behind. Each record's writing is held at a gate until the delete has started, which forces the
 * order in which the writer and the delete would otherwise meet only now and then.
 */
class SlurmRecordWritesTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path sharedDir;
    private Path jobsDir;

    @BeforeEach
    void layout() {
        jobsDir = sharedDir.resolve("jobs");
    }

    private final CountDownLatch writing = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final ConcurrentHashMap<JobKey, SlurmJob> jobs = new ConcurrentHashMap<>();
    private final IdleSlurm slurm = new IdleSlurm();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private SlurmRecords records;
    private SlurmStops stops;

    @AfterEach
    void stop() {
        release.countDown();
        if (stops != null) {
            stops.close();
        }
    }

    @Test
    void aDeleteWhileTheNextAttemptsRecordIsWrittenWaitsForItAndLeavesNoRecord() throws Exception {
        SlurmJob waiting = SlurmRestarts.ended(SlurmRestartsDecisionTest.running("max_restarts=1"),
                SlurmRestartsDecisionTest.ended(SlurmRestartsDecisionTest.running("max_restarts=1"), JobPhase.FAILED,
                        "NodeFailed", "lost"), Ending.fromOutside("NodeFailed", "lost"), SlurmRestartsDecisionTest.BACKOFF, T0);
        start(waiting);
        NextAttempts next = new NextAttempts(jobs, slurm, records, PlacementTest.PROPERTIES, key -> { });

        Thread writer = thread(() -> next.submitIfDue(waiting, T0.plusSeconds(60)));

        assertDeleteWaitsForTheRecordAndLeavesNothing(writer, waiting.key());
    }

    @Test
    void aDeleteWhileACancelsRecordIsWrittenWaitsForItAndLeavesNoRecord() throws Exception {
        SlurmJob running = SlurmRestartsDecisionTest.running("");
        start(running);

        Thread writer = thread(() -> stops.cancel(running.key()));

        assertDeleteWaitsForTheRecordAndLeavesNothing(writer, running.key());
    }

    private void start(SlurmJob job) {
        records = new SlurmRecords(JobDirectories.under(sharedDir), heldWrites());
        stops = new SlurmStops(jobs, slurm, records, Clock.fixed(T0, ZoneOffset.UTC), key -> { }, Duration.ofMinutes(1));
        jobs.put(job.key(), job);
    }

    private void assertDeleteWaitsForTheRecordAndLeavesNothing(Thread writer, JobKey key) throws Exception {
        assertThat(writing.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the record is being written").isTrue();
        Thread deleter = thread(() -> stops.delete(key));
        // Blocked on the key's lock, or, were the record written without it, done with the files already.
        await().atMost(DEADLINE).until(() -> deleter.getState() == Thread.State.BLOCKED
                || deleter.getState() == Thread.State.TERMINATED);
        release.countDown();
        writer.join(DEADLINE.toMillis());
        deleter.join(DEADLINE.toMillis());

        assertThat(failures).as("neither the writer nor the delete failed").isEmpty();
        assertThat(jobs).isEmpty();
        assertThat(records.files(key).record()).as("the job's record").doesNotExist();
        stops.removeStopped(List.of()); // the poller's next look: Slurm runs nothing of it
        assertThat(records.files(key).record().getParent()).as("the job's directory").doesNotExist();
    }

    private Thread thread(Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        thread.start();
        return thread;
    }

    /** Records as JSON whose writing, once its file is open, waits at the gate. */
    private JsonMapper heldWrites() {
        return JsonMapper.builder().addModule(new SimpleModule().addSerializer(SlurmJob.class, new ValueSerializer<>() {
            @Override
            public void serialize(SlurmJob job, JsonGenerator generator, SerializationContext context) {
                writing.countDown();
                try {
                    release.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                generator.writeString(job.key().toString());
            }
        })).build();
    }

    /** A Slurm that takes every job and runs none of them: what the record's writers and a delete ask of it. */
    static final class IdleSlurm implements SlurmClient {
        @Override
        public long submit(BatchJob job) {
            return 8;
        }

        @Override
        public List<SlurmJobInfo> jobs() {
            return List.of();
        }

        @Override
        public void cancel(long jobId) {
        }

        @Override
        public void terminate(long jobId) {
        }
    }
}
