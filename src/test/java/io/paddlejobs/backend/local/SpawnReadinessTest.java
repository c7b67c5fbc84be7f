package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.HostPrograms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team, round 3, H2: with every process ID taken, the service could start no job and its own
 * threads died, while {@code /actuator/health} said UP. Readiness now says whether the service can
 * start a process. The service runs as a user of its own (reading the build's files through
 * {@code CAP_DAC_READ_SEARCH}), and its process limit is then lowered under what its user already
 * runs, which is what a job that took every process ID leaves it: no fork, no new thread.
 */
@Tag("redteam")
class SpawnReadinessTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void readinessIsDownWhileTheServiceCannotStartAProcessAndUpAgainOnceItCan() throws Exception {
        SandboxEscapeTest.require(HostPrograms.runningAsRoot(), "only root runs the service as another user");
        int uid = LocalBackendFixture.unusedUids();
        Path root = Files.createDirectories(dir.resolve("data"));
        Files.setAttribute(root, "unix:uid", uid);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // H2 looks at the way there
        // C1 alone starts the service sooner (as the image runs it); the rest is the user it runs as.
        try (ServiceProcess service = ServiceProcess.startAsAnotherUser(List.of("env", "JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1",
                "setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--inh-caps=+dac_read_search",
                "--ambient-caps=+dac_read_search"), dir, root,
                "--paddlejobs.local.sandbox=off", "--paddlejobs.webhooks.dir=" + root.resolve("webhooks"))) {
            ServiceClient client = new ServiceClient(service.port());
            assertThat(client.get("/actuator/health/readiness").statusCode()).isEqualTo(200);

            String soft = softProcessLimit(service.pid());
            limitProcesses(uid, service.pid(), "1");
            try {
                // A service out of threads may leave a request unanswered: each look gives up soon and looks again.
                ServiceClient looking = client.within(Duration.ofSeconds(5));
                await().atMost(DEADLINE).ignoreExceptions()
                        .until(() -> looking.get("/actuator/health/readiness").statusCode() == 503);
                assertThat(client.get("/actuator/health/liveness").statusCode()).as("nothing to restart it for")
                        .isEqualTo(200);
            } finally {
                limitProcesses(uid, service.pid(), soft);
            }

            await().atMost(DEADLINE).ignoreExceptions()
                    .until(() -> client.within(Duration.ofSeconds(5)).get("/actuator/health/readiness").statusCode() == 200);
        }
    }

    /** The soft process limit of a running process, as {@code /proc/<pid>/limits} says it. */
    private static String softProcessLimit(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "limits")).stream()
                .filter(line -> line.startsWith("Max processes")).findFirst().orElseThrow()
                .substring("Max processes".length()).trim().split("\\s+")[0];
    }

    /**
     * Sets the soft process limit of a running process of this user's, as that user (another user's
     * limits take {@code CAP_SYS_RESOURCE}, which even root may lack); the hard one stays.
     */
    private static void limitProcesses(int uid, long pid, String limit) throws IOException, InterruptedException {
        Process prlimit = new ProcessBuilder("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "prlimit",
                "--pid", Long.toString(pid), "--nproc=" + limit + ":")
                .redirectErrorStream(true).start();
        String said = new String(prlimit.getInputStream().readAllBytes());
        assertThat(prlimit.waitFor()).as(said).isZero();
    }
}
