package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.HostPrograms;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team, round 3, H2: one job takes every process ID the host has, and then no other tenant's
 * job starts (nor, the service's threads). As root, each namespace's replicas run as a user of
 * their own under {@code RLIMIT_NPROC}: a job of team-b that tries to start the limit and 50 more
 * processes stops at the limit and holds it, and team-a's job starts meanwhile. Bounded: at most
 * the limit plus 50 spawns, held for a minute at most, and stopped at the end.
 */
@Tag("redteam")
class ProcessLimitTest {

    private static final int LIMIT = 40;
    private static final Pattern SPAWNED = Pattern.compile("spawned (\\d+)\\n");

    @TempDir
    Path dataRoot;

    @Test
    void aJobSpawningPastItsNamespacesLimitStopsThereAndAnotherNamespacesJobStillStarts() throws Exception {
        SandboxEscapeTest.require(HostPrograms.runningAsRoot(), "the limit is per namespace only as root (CI runs as root)");
        int firstUid = LocalBackendFixture.unusedUids();
        LocalProperties properties = LocalBackendFixture.properties(dataRoot, "max-processes", LIMIT,
                "sandbox-first-uid", firstUid);
        try (var local = new LocalBackendFixture(properties, true)) {
            SandboxEscapeTest.assumeConfined(local);
            // The inner shell dies at its first failed fork (dash); the outer one then holds the slot it freed.
            String forker = "sh -c 'i=0; while [ $i -lt " + (LIMIT + 50) + " ]; do sleep 60 & i=$((i+1)); "
                    + "echo spawned $i; done; echo spawned-all'; echo inner-ended; sleep 60";
            JobKey forkerKey = local.submitIn("team-b", "forker", forker);
            await().atMost(DEADLINE).until(() -> local.log(forkerKey).contains("inner-ended"));
            try {
                String log = local.log(forkerKey);
                int spawned = 0;
                for (Matcher line = SPAWNED.matcher(log); line.find(); ) {
                    spawned = Integer.parseInt(line.group(1));
                }

                assertThat(log).doesNotContain("spawned-all");
                assertThat(spawned).as("processes the job could start").isLessThanOrEqualTo(LIMIT).isGreaterThan(LIMIT - 5);
                int uid = (Integer) Files.getAttribute(dataRoot.resolve("storage/team-b"), "unix:uid");
                assertThat(uid).isEqualTo(firstUid);
                assertThat(processesOf(uid)).as("team-b's processes").isLessThanOrEqualTo(LIMIT);

                assertThat(local.runToEnd("team-a", "bystander", "echo started")).contains("started");
            } finally {
                local.backend.cancel(forkerKey);
            }
            await().atMost(DEADLINE).until(() -> processesOf(firstUid) == 0);
        }
    }

    /** How many processes of this user run on the machine now. */
    private static int processesOf(int uid) throws IOException {
        int count = 0;
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"),
                path -> path.getFileName().toString().chars().allMatch(Character::isDigit))) {
            for (Path process : processes) {
                try {
                    if ((Integer) Files.getAttribute(process, "unix:uid") == uid) {
                        count++;
                    }
                } catch (IOException gone) {
                    // ended while we looked
                }
            }
        }
        return count;
    }
}
