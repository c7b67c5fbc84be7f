package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.RendezvousGateTest;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequests;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's GPUs go to the next job only once every process of it is gone. The report: on
 * {@code paddlejobs.local.gpus=0,1,2,3}, two 2-GPU collective jobs submitted back to back both ran on
 * GPUs 0 and 1. The second waited (there was memory for one at a time) and was given the first's
 * GPUs as soon as the first was over, while what the first's trainers had started still ran on them.
 */
class GpuHandOverTest {

    @TempDir
    Path dir;

    @Test
    void aWaitingJobGetsAnEndedJobsGpusOnlyOnceItsLastProcessIsGone() throws Exception {
        DeviceLog devices = new DeviceLog(dir.resolve("devices.log"));
        Path release = dir.resolve("release");
        // Memory for one job at a time, as on the machine of the report; a grace period longer than the test.
        var properties = LocalBackendFixture.properties(dir.resolve("data"), "gpus", "0,1,2,3", "memory", "384MB",
                "cpus", 8, "stop-grace-period", "60s");
        // Like a trainer whose data loader workers outlive it: it exits 0, and a child goes on using its GPU.
        String leavesAWorker = devices.begin() + "(trap '' TERM; while [ ! -e " + release + " ]; do sleep 0.05; done; "
                + devices.event("exit") + ") >/dev/null 2>&1 & exit 0";
        // Trainer 0 listens on its master port, as Paddle's store does: the other trainer starts once it does.
        String runs = devices.begin() + "if [ \"$RANK\" = 0 ]; then "
                + RendezvousGateTest.listenOnMasterPort(dir.resolve("listening")) + " & wait $!; else sleep 3304 & wait $!; fi";
        try (var local = new LocalBackendFixture(properties, false)) {
            local.backend.submit(local.plan(collective("first", leavesAWorker)));
            local.backend.submit(local.plan(collective("second", runs)));
            local.awaitPhase("first", JobPhase.SUCCEEDED);

            await().atMost(DEADLINE).until(() -> {
                JobStatus second = local.job("second").status();
                return second.phase() != JobPhase.PENDING || second.message().contains("its processes are stopping");
            });
            JobStatus waiting = local.job("second").status();
            assertThat(waiting.phase()).as("the second job starts while the first one's worker still uses GPUs 0 and 1 "
                    + "(devices: %s)", devices.lines()).isEqualTo(JobPhase.PENDING);
            assertThat(waiting.message()).contains("held by first (ended, its processes are stopping)");
            assertThat(local.backend.capacity().orElseThrow().inUse().gpus()).isEqualTo(2);

            Files.createFile(release);
            local.awaitPhase("second", JobPhase.RUNNING);
            await().atMost(DEADLINE).until(() -> devices.lines().stream().filter(l -> l.startsWith("start second/")).count() == 2);
            assertThat(devices.sharedDevices()).isEmpty();
            assertThat(devices.lines()).filteredOn(l -> l.startsWith("start second/"))
                    .as("the lowest free GPUs, once the first job's were free").containsExactlyInAnyOrder(
                            "start second/0/0 0", "start second/1/0 1");
        } finally {
            if (!Files.exists(release)) {
                Files.createFile(release); // the worker ignores SIGTERM: let it end
            }
        }
    }

    private static io.paddlejobs.planning.JobRequest collective(String name, String entryPoint) {
        return JobRequests.named(name, entryPoint).mode(JobMode.COLLECTIVE).numGpus(2).numCpus(1).memory("256Mi").build();
    }
}
