package io.paddlejobs.backend.local;

import io.paddlejobs.backend.SecretStore;
import io.paddlejobs.backend.local.process.HostPrograms;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
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

    /**
     * Issue 48: a secret given to tenant A's job is nowhere tenant B's job can look while A's replica runs
     * with it: the environment of every process B sees, and of A's processes by their pids on the host,
     * the operator's store (outside {@code /tmp}, its directories open to all: only the file's mode 0600
     * and B's own user keep B out), A's job directory and its log, where the value A printed is unmasked.
     */
    @Test
    void anotherTenantsJobFindsNoTraceOfAJobsSecretWhileThatJobRuns() throws Exception {
        require(HostPrograms.runningAsRoot(), "a local backend takes secrets with tenants only as root (CI runs as root)");
        String value = "s3cret-" + UUID.randomUUID();
        Path secret = serviceFile("secrets/team-a/s3/key", value);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Path store = service.resolve("secrets");
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot), true, SecretStore.at(store))) {
            assumeConfined(local);
            var alice = JobRequests.named("alice-secret",
                            "echo \"value=$S3_KEY\"; echo \"$S3_KEY\" > copy.txt; echo started; exec sleep 3919")
                    .trainers(1).pservers(0).envFromSecrets(Map.of("S3_KEY", new JobRequest.SecretKey("s3", "key"))).build();
            JobPlan plan = local.planner.plan(alice, "team-a", local.backend.site());
            local.backend.requireFits(plan);
            local.backend.submit(plan);
            JobKey aliceKey = new JobKey("team-a", "alice-secret");
            Path aliceLog = dataRoot.resolve("jobs/team-a/alice-secret/logs/trainer-0.log");
            await().atMost(DEADLINE).until(() -> Files.exists(aliceLog) && Files.readString(aliceLog).contains("started"));
            assertThat(Files.readString(aliceLog)).as("A's replica has the value, and its log on disk holds it")
                    .contains("value=" + value);
            long sleeping = await().atMost(DEADLINE).until(() -> processesWhoseEnvironmentHolds(value).stream()
                    .filter(pid -> commandLineOf(pid).contains("sleep 3919")).findFirst().orElse(0L), pid -> pid > 0);
            List<Long> holders = processesWhoseEnvironmentHolds(value);

            String log = runAsBob(local, String.join("\n",
                    "n=0; for e in /proc/[0-9]*/environ; do n=$((n+1)); tr '\\0' '\\n' < $e; done; echo environs-tried=$n",
                    "for p in " + holders.stream().map(String::valueOf).collect(Collectors.joining(" ")) + "; do",
                    "  tr '\\0' '\\n' < /proc/$p/environ; done",
                    "ls -l " + store + "/team-a/s3; cat " + secret + "; grep -r . " + store,
                    "echo jobs: $(ls " + dataRoot + "/jobs); cat " + aliceLog,
                    "cat " + dataRoot + "/jobs/team-a/alice-secret/work/trainer-0/copy.txt",
                    "grep -rs . " + dataRoot + " | grep -v /team-b/",
                    "echo done-looking"));

            assertThat(log).as("B looked: it tried environments, listed the store's file and was denied it")
                    .containsPattern("environs-tried=[1-9]").contains(" key\n", "Permission denied", "done-looking")
                    .doesNotContain(value, value.substring("s3cret-".length()));
            assertThat(processesWhoseEnvironmentHolds(value)).as("A's replica ran with the value while B looked")
                    .contains(sleeping);
            assertThat(local.backend.find(aliceKey).orElseThrow().status().phase()).isEqualTo(JobPhase.RUNNING);
            local.backend.cancel(aliceKey);
        }
    }

    /** The processes on this machine whose environment holds {@code value} (as root, every one can be read). */
    private static List<Long> processesWhoseEnvironmentHolds(String value) {
        byte[] needle = value.getBytes(StandardCharsets.UTF_8);
        return ProcessHandle.allProcesses().map(ProcessHandle::pid).filter(pid -> {
            try {
                return indexOf(Files.readAllBytes(Path.of("/proc", pid.toString(), "environ")), needle) >= 0;
            } catch (IOException e) {
                return false; // gone meanwhile
            }
        }).toList();
    }

    private static String commandLineOf(long pid) {
        return ProcessHandle.of(pid).flatMap(process -> process.info().commandLine()).orElse("");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
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
