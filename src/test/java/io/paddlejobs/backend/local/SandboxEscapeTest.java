package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.HostPrograms;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant's job, in token mode, trying to leave its sandbox: as root (where bubblewrap once kept
 * every capability) and through the service user's own files. The service's files sit outside
 * {@code /tmp} (which every sandbox covers anyway), readable by all, so that only the sandbox
 * stands between them and the job; a file beside them that is not hidden shows that the job could
 * reach them. {@code -Dsandbox.required=true} (as CI sets) makes a skip for want of root or of
 * bubblewrap a failure.
 */
@Tag("redteam") // Red team round 2, H2: the root sandbox that kept its capabilities.
class SandboxEscapeTest {

    @TempDir
    Path dataRoot;
    private Path service;

    @AfterEach
    void removeServiceFiles() throws IOException {
        if (service != null) {
            try (Stream<Path> files = Files.walk(service)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    @Test
    void asRootAJobHasNoCapabilitiesCannotUnmountItsSandboxAndReadsOrWritesNothingOfTheHostsOrOtherTenants()
            throws Exception {
        require(HostPrograms.runningAsRoot(), "the attack needs the service to run as root (CI runs as root); "
                + "ReplicaConfinementTest covers the sandbox of an unprivileged service");
        Path tokenFile = serviceFile("etc/tokens.yaml", "TOKEN-FILE-SECRET");
        Path marker = service.resolve("escaped-marker");
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot), true,
                new Sandbox.Hidden(List.of(tokenFile), List.of()))) {
            assumeConfined(local);
            startAlice(local);
            String escape = String.join("\n", "cd /; grep CapEff /proc/self/status; echo uid=$(id -u)",
                    "for m in $(cut -d' ' -f5 /proc/self/mountinfo | grep \"^" + dataRoot + "\\|^/tmp\" | sort -r); do",
                    "  umount -l $m 2>/dev/null && echo UMOUNTED $m; done",
                    "unshare -Urm sh -c 'umount -l " + dataRoot + " && echo NESTED-UMOUNTED' 2>/dev/null",
                    "head -3 " + tokenFile + "; echo jobs: $(ls " + dataRoot + "/jobs)",
                    "cat " + dataRoot + "/jobs/team-a/alice-secret/logs/*.log",
                    "grep -o 'API_KEY[^,]*' " + dataRoot + "/jobs/team-a/alice-secret/job.json",
                    "mount -o remount,rw / 2>/dev/null && echo REMOUNT-RW-OK",
                    "echo written-from-bob > " + marker + " && echo WROTE-MARKER",
                    "[ -w /proc/sys/kernel/core_pattern ] && echo SYSCTL-WRITABLE",
                    "echo done-escaping");

            String log = runAsBob(local, escape);

            assertThat(log).contains("CapEff:\t0000000000000000", "jobs: team-b\n", "done-escaping")
                    .doesNotContain("uid=0\n", "UMOUNTED", "TOKEN-FILE-SECRET", "ALICE-SECRET-LOG",
                            "alice-key-123", "REMOUNT-RW-OK", "WROTE-MARKER", "SYSCTL-WRITABLE");
            assertThat(marker).doesNotExist();
        }
    }

    @Test
    void aJobSeesNeitherTheServiceUsersHomeNorTheServicesWorkingDirectoryAndLog() throws Exception {
        Path aws = serviceFile("home/.aws/credentials", "aws_secret_access_key=OPERATOR-SECRET");
        serviceFile("home/.ssh/id_rsa", "PRIVATE-KEY");
        Path serviceLog = serviceFile("work/service.log", "action=submit user=alice namespace=team-a job=alice-secret");
        Path beside = serviceFile("beside/visible.txt", "NOT-HIDDEN");
        Path home = service.resolve("home");
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot), true,
                new Sandbox.Hidden(List.of(), List.of(home, service.resolve("work"))))) {
            assumeConfined(local);

            String log = runAsBob(local, "cat " + aws + " " + home + "/.ssh/id_rsa " + serviceLog + " " + beside
                    + "; echo home=$(ls -A " + home + ")end; echo HOME=$HOME");

            assertThat(log).contains("NOT-HIDDEN", "home=end", "HOME=" + dataRoot.resolve("jobs/team-b/snoop/work/trainer-0"))
                    .doesNotContain("OPERATOR-SECRET", "PRIVATE-KEY", "action=submit");
        }
    }

    /** Skips (or, with {@code -Dsandbox.required=true}, fails) where bubblewrap cannot confine replicas. */
    static void assumeConfined(LocalBackendFixture local) {
        require(local.sandbox.confinesFiles(), "bubblewrap cannot confine replicas here (see the log for why)");
    }

    static void require(boolean condition, String why) {
        if (!condition) {
            if (Boolean.getBoolean("sandbox.required")) {
                fail(why + "; -Dsandbox.required=true makes that a failure");
            }
            Assumptions.abort(why);
        }
    }

    private void startAlice(LocalBackendFixture local) {
        var alice = JobRequests.named("alice-secret", "echo ALICE-SECRET-LOG; sleep 30").trainers(1).pservers(0)
                .env(Map.of("API_KEY", "alice-key-123")).build();
        local.backend.submit(local.planner.plan(alice, "team-a", local.backend.site()));
        await().atMost(DEADLINE).until(() -> Files.exists(dataRoot.resolve("jobs/team-a/alice-secret/logs/trainer-0.log"))
                && Files.readString(dataRoot.resolve("jobs/team-a/alice-secret/logs/trainer-0.log")).contains("ALICE"));
    }

    private String runAsBob(LocalBackendFixture local, String entryPoint) throws IOException {
        var bob = LocalBackendFixture.request("snoop", entryPoint, 0, 1);
        local.backend.submit(local.planner.plan(bob, "team-b", local.backend.site()));
        JobKey key = new JobKey("team-b", "snoop");
        await().atMost(DEADLINE).until(() -> local.backend.find(key).orElseThrow().status().phase().isFinished());
        var out = new ByteArrayOutputStream();
        local.backend.writeLogs(key, Role.TRAINER, 0, null, false, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A file of the service's, readable by everyone, outside {@code /tmp}. */
    private Path serviceFile(String name, String content) throws IOException {
        if (service == null) {
            service = Files.createTempDirectory(Path.of("/var/tmp"), "paddlejobs-service");
        }
        Path file = service.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content + "\n");
        try (Stream<Path> all = Files.walk(service)) {
            for (Path path : all.toList()) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                        Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return file;
    }
}
