package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Twenty {@code kill -9}s of the local backend's JVM in the middle of a storm of submits and deletes:
 * each time, once the next run is ready, no replica of an earlier run is alive. A replica starts only
 * once its job's record names its process ({@link ReplicaProcess}), and a run stops whatever a record
 * names (an ended job's too, which may have been in its grace period), so the next run finds every one.
 * The backend runs without Spring ({@link LocalBackendProcess}), so that twenty restarts take about a
 * minute on a loaded two-core machine (tag {@code stress}).
 */
@Tag("stress")
class KillDuringSubmitStormTest {

    private static final int KILLS = 20;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Pattern RECORD_PROCESSES = Pattern.compile("\"pid\":\\d+,\"startedAt\":\"[^\"]*\"");

    @TempDir
    Path dataRoot;

    @Test
    void afterEachOfTwentyKillsDuringASubmitStormNoReplicaOfAnEarlierRunIsAliveOnceTheNextIsReady() throws Exception {
        Random random = new Random(43);
        for (int run = 0; run <= KILLS; run++) {
            ServiceProcess service = ServiceProcess.startMain(LocalBackendProcess.class.getName(),
                    Pattern.compile(Pattern.quote(LocalBackendProcess.READY)), dataRoot.toString(), Integer.toString(run));
            try {
                Instant started = service.startedAt();
                List<String> alive = replicas().filter(replica -> startedBefore(replica, started))
                        .map(KillDuringSubmitStormTest::describe).toList();
                assertThat(alive).as("replicas of an earlier run alive once run %d is ready (records: %s)", run,
                        records()).isEmpty();
                if (run < KILLS) {
                    // Killed at a different moment each time: after its first submits, while it starts and deletes jobs.
                    int submits = 1 + random.nextInt(6);
                    await().atMost(DEADLINE).until(() -> service.output().lines()
                            .filter(line -> line.startsWith("submitted ")).count() >= submits);
                    service.kill();
                }
            } finally {
                service.close(); // the last run's normal stop stops its replicas itself; a killed run's is a no-op
            }
        }
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(replicas().map(KillDuringSubmitStormTest::describe))
                .as(() -> "replicas alive after the last run's stop (records: " + records() + ")").isEmpty());
    }

    /** A replica left alive, as a failure shows it: its pid, start, and parent, to find whose it was. */
    private static String describe(ProcessHandle replica) {
        return replica.pid() + " started " + replica.info().startInstant().orElse(null) + " under "
                + replica.parent().map(parent -> parent.pid() + " " + parent.info().commandLine().orElse("?")).orElse("none");
    }

    /** The pids and starts the job records on disk name, to tell a replica never recorded from one not stopped. */
    private String records() {
        try (Stream<Path> files = Files.walk(dataRoot)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".json")).map(file -> {
                try {
                    return file.getFileName() + "=" + RECORD_PROCESSES.matcher(Files.readString(file)).results()
                            .map(MatchResult::group).toList();
                } catch (IOException e) {
                    return file.getFileName() + "=" + e;
                }
            }).toList().toString();
        } catch (IOException | UncheckedIOException e) {
            return e.toString();
        }
    }

    /** Whatever a failed run of this test left (it runs until stopped): these are the test's own processes. */
    @AfterEach
    void stopWhatIsLeft() {
        replicas().forEach(ProcessHandle::destroyForcibly);
    }

    /** Every process that runs a replica of these tests' jobs: {@code sleep} with the argument none else has. */
    private static Stream<ProcessHandle> replicas() {
        return ProcessHandle.allProcesses().filter(process -> process.info().command().orElse("").endsWith("/sleep")
                && List.of(process.info().arguments().orElse(new String[0])).equals(List.of(LocalBackendProcess.SLEEP_ARGUMENT)));
    }

    private static boolean startedBefore(ProcessHandle process, Instant instant) {
        return process.info().startInstant().map(start -> start.isBefore(instant)).orElse(false);
    }
}
