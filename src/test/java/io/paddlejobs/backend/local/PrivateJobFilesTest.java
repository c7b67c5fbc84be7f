package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.HostPrograms;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobRequests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team, round 3, M4: a replica's log (whatever the job printed) and the job's record (its
 * {@code env} values) were readable by every local user. They are the service's alone, and so is
 * every tree of the data root they lie in, an earlier version's included.
 */
@Tag("redteam")
class PrivateJobFilesTest {

    @TempDir
    Path dataRoot;

    @Test
    void aJobsLogAndRecordAreReadableByTheServiceAlone() throws Exception {
        Files.createDirectories(dataRoot.resolve("jobs"));
        Files.setPosixFilePermissions(dataRoot.resolve("jobs"), PosixFilePermissions.fromString("rwxr-xr-x"));
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.backend.submit(local.plan(JobRequests.named("secret", "echo ALICE-SECRET-LOG").trainers(1).pservers(0)
                    .env(Map.of("API_KEY", "alice-key-123")).build()));
            local.awaitPhase("secret", JobPhase.SUCCEEDED);

            Path job = dataRoot.resolve("jobs/default/secret");
            assertThat(mode(job.resolve("logs/trainer-0.log"))).isEqualTo("rw-------");
            assertThat(mode(job.resolve("job.json"))).isEqualTo("rw-------");
            for (Path dir : new Path[] {dataRoot.resolve("jobs"), dataRoot.resolve("storage"), dataRoot.resolve("checkpoints"),
                    job, job.resolve("logs")}) {
                assertThat(mode(dir)).as(dir.toString()).isEqualTo("rwx------");
            }
            if (HostPrograms.runningAsRoot()) {
                for (Path file : new Path[] {job.resolve("logs/trainer-0.log"), job.resolve("job.json")}) {
                    Process other = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            "cat", file.toString()).redirectErrorStream(true).start();
                    String said = new String(other.getInputStream().readAllBytes());
                    assertThat(other.waitFor()).as(said).isNotZero();
                    assertThat(said).doesNotContain("ALICE-SECRET-LOG", "alice-key-123");
                }
            }
        }
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
