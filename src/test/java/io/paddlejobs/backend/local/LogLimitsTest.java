package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.record.StorageFullException;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/** Logs that cannot fill the disk, tails that read a bounded amount, and a full disk that loses nothing. */
@Tag("redteam") // Red team round 1, H2 and M10: logs that fill the disk, tails that read whole files.
class LogLimitsTest {

    @TempDir
    Path dataRoot;

    private LocalProperties properties(Path root, DataSize maxLog, DataSize minFree) {
        return LocalBackendFixture.properties(root, "max-log-size", maxLog, "min-free-space", minFree);
    }

    @Test
    void aChattyReplicasLogKeepsItsNewestOutputUnderTheCapWithAMarker() throws IOException {
        try (var local = new LocalBackendFixture(properties(dataRoot, DataSize.ofKilobytes(256), DataSize.ofBytes(0)), false)) {
            // Only the trainer writes: a pserver stopped mid-output would still be writing when the test ends.
            local.submit("chatty", "[ $TRAINING_ROLE = PSERVER ] || { seq 1 400000; echo LAST-LINE; }", 1, 1);
            local.awaitPhase("chatty", JobPhase.SUCCEEDED);

            Path log = dataRoot.resolve("jobs/default/chatty/logs/trainer-0.log");
            String text = local.log("chatty", Role.TRAINER, 0);

            assertThat(Files.size(log)).isLessThanOrEqualTo(256 * 1024);
            assertThat(text).startsWith("[paddle-jobs: ").contains("bytes of earlier output dropped")
                    .endsWith("399999\n400000\nLAST-LINE\n");
            long dropped = Long.parseLong(text.substring("[paddle-jobs: ".length(), text.indexOf(' ', 14)));
            long written = 2_688_905; // bytes of "seq 1 400000" and the last line
            assertThat(dropped + text.length() - text.indexOf('\n') - 1).isEqualTo(written);
        }
    }

    @Test
    void aFollowerKeepsItsPlaceWhenTheLogIsCompactedUnderIt() throws IOException {
        try (var local = new LocalBackendFixture(properties(dataRoot, DataSize.ofKilobytes(64), DataSize.ofBytes(0)), false)) {
            local.submit("growing", "[ $TRAINING_ROLE = PSERVER ] || { for i in $(seq 1 30); do seq 1 1000 | sed \"s/^/$i-/\"; "
                    + "sleep 0.05; done; echo END; }", 1, 1);
            var out = new ByteArrayOutputStream();

            local.backend.writeLogs(new JobKey("default", "growing"), Role.TRAINER, 0, null, true, out);

            String followed = out.toString(StandardCharsets.UTF_8);
            assertThat(followed).endsWith("30-1000\nEND\n");
            // No line is repeated: where output went under the follower, it got the marker instead.
            List<String> lines = followed.lines().filter(line -> !line.startsWith("[paddle-jobs:")).toList();
            assertThat(lines).doesNotHaveDuplicates();
        }
    }

    @Test
    void aTailReadsABoundedAmountWhenTheLogHasNoNewlines() throws IOException {
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.submit("nonl", "head -c 5000000 /dev/zero | tr '\\0' x; printf 'a\\rb\\rlast'", 1, 1);
            local.awaitPhase("nonl", JobPhase.SUCCEEDED);
            var out = new ByteArrayOutputStream();

            local.backend.writeLogs(new JobKey("default", "nonl"), Role.TRAINER, 0, 1, false, out);
            var two = new ByteArrayOutputStream();
            local.backend.writeLogs(new JobKey("default", "nonl"), Role.TRAINER, 0, 2, false, two);
            var many = new ByteArrayOutputStream();
            local.backend.writeLogs(new JobKey("default", "nonl"), Role.TRAINER, 0, 1000, false, many);

            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("last");
            assertThat(two.toString(StandardCharsets.UTF_8)).isEqualTo("b\rlast");
            assertThat(many.size()).isLessThanOrEqualTo(io.paddlejobs.backend.LastLines.MAX_TAIL_BYTES);
        }
    }

    /** The report's case: a job fills a small file system; the service refuses new jobs and still stops the old. */
    @Test
    void aJobFillingASmallDiskLeavesTheServiceInControl() throws Exception {
        assumeThat(new com.sun.security.auth.module.UnixSystem().getUid()).as("mounting a tmpfs needs root").isZero();
        Path small = dataRoot.resolve("small");
        Files.createDirectories(small);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", small.toString())
                .inheritIO().start();
        assumeThat(mount.waitFor()).as("tmpfs mounted").isZero();
        try {
            var props = properties(small.resolve("data"), DataSize.ofMegabytes(200), DataSize.ofMegabytes(4));
            try (var local = new LocalBackendFixture(props, false)) {
                local.submit("filler", "yes FILLFILLFILL | head -c 100000000; sleep 3601", 1, 1);
                await().atMost(DEADLINE).until(() -> Files.getFileStore(small).getUsableSpace() < 4 << 20);

                assertThatThrownBy(() -> local.submit("after1", "echo hello", 1, 1))
                        .isInstanceOf(StorageFullException.class)
                        .satisfies(e -> assertThat(((StorageFullException) e).getStatusCode().value()).isEqualTo(507));
                assertThat(local.backend.find(new JobKey("default", "after1"))).isEmpty();

                local.backend.delete(new JobKey("default", "filler"));
                assertThat(anyProcessWith("sleep 3601")).as("the filler's processes are stopped").isFalse();
                await().atMost(DEADLINE).until(() -> Files.getFileStore(small).getUsableSpace() > 30 << 20);

                // No slot leaked: four jobs run side by side again.
                for (int i = 0; i < 4; i++) {
                    local.submit("again-" + i, "sleep 3602", 1, 1);
                }
                await().atMost(DEADLINE).until(() -> local.backend.list("default").stream()
                        .filter(job -> job.status().phase() == JobPhase.RUNNING).count() == 4);
                for (int i = 0; i < 4; i++) {
                    local.backend.delete(new JobKey("default", "again-" + i));
                }
            }
        } finally {
            new ProcessBuilder("umount", "-l", small.toString()).inheritIO().start().waitFor();
        }
    }
}
