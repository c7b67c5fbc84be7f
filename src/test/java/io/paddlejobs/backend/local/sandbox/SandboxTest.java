package io.paddlejobs.backend.local.sandbox;

import io.paddlejobs.backend.local.JobWorkspace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the local backend may serve several tenants, and how a replica's command is built. */
class SandboxTest {

    private static final Path DATA = Path.of("/srv/paddle-jobs/data");
    private static final Path WORK = DATA.resolve("jobs/a/b/work/trainer-0");
    private static final Path CODE = DATA.resolve("jobs/a/b/code");
    private static final Path STORAGE = DATA.resolve("storage/a");
    private static final Path CHECKPOINTS = DATA.resolve("checkpoints/a/b");
    private static final JobWorkspace.ReplicaDirectories DIRS = new JobWorkspace.ReplicaDirectories(WORK, CODE, STORAGE,
            CHECKPOINTS);
    private static final JobUsers USERS = JobUsers.perNamespace(1_000_000, 100);
    private static final int MAX_PROCESSES = 4096;

    @Test
    void tokenModeWithoutASandboxRefusesToStartUnlessTheOperatorAcceptsSharedFiles() {
        Sandbox none = Sandbox.create(Sandbox.Mode.OFF, true, DATA, Sandbox.Hidden.NOTHING, USERS, MAX_PROCESSES);

        assertThatThrownBy(() -> none.requireIsolation(true, false, "token"))
                .hasMessageContaining("paddlejobs.allow-shared-files=true");
        assertThatCode(() -> none.requireIsolation(true, true, "token")).doesNotThrowAnyException();
        assertThatCode(() -> none.requireIsolation(false, false, "none")).doesNotThrowAnyException();
    }

    @Test
    void tenantsReplicasRunningAsOneUserCouldReadEachOthersSecrets() {
        assertThat(Sandbox.create(Sandbox.Mode.OFF, true, DATA, Sandbox.Hidden.NOTHING, USERS, MAX_PROCESSES)
                .keepsTenantsSecretsApart()).as("tenants, shared files: one user for all").isFalse();
        assertThat(Sandbox.create(Sandbox.Mode.OFF, false, DATA, Sandbox.Hidden.NOTHING, USERS, MAX_PROCESSES)
                .keepsTenantsSecretsApart()).as("no tenants").isTrue();
    }

    @Test
    void withoutASandboxAReplicaIsAPlainShellInItsOwnProcessGroup() {
        Sandbox.Start start = Sandbox.create(Sandbox.Mode.OFF, false, DATA, Sandbox.Hidden.NOTHING, USERS, MAX_PROCESSES)
                .start("python train.py", DIRS, null, Map.of("LD_PRELOAD", "libjemalloc.so"), List.of());

        assertThat(start.command()).endsWith("sh", "-c", "python train.py").noneMatch(arg -> arg.endsWith("bwrap"))
                .containsSubsequence("--nproc=4096:4096", "--", "sh");
        assertThat(start.environment()).containsEntry("LD_PRELOAD", "libjemalloc.so");
    }

    @Test
    void theServicesDirectoriesAreCoveredBeforeTheDataRootAndTheReplicasOwnDirectoriesComeLastReachableByAll(
            @TempDir Path service) {
        var hidden = new Sandbox.Hidden(List.of(), List.of(Path.of("/"), service.resolve("."), service));
        Sandbox sandbox = Sandbox.create(Sandbox.Mode.OFF, true, DATA, hidden, USERS, MAX_PROCESSES);

        List<SandboxMounts.Mount> mounts = sandbox.mounts(DIRS, List.of());

        assertThat(hidden.directories()).containsExactly(service);
        assertThat(mounts).map(SandboxMounts.Mount::target).startsWith("/", "/dev", "/proc", "/tmp")
                .containsSubsequence("/tmp", service.toString(), DATA.toString(), CODE.toString(), WORK.toString(),
                        STORAGE.toString(), CHECKPOINTS.toString())
                .endsWith(CHECKPOINTS.toString());
        assertThat(mounts).filteredOn(mount -> mount.target().equals(CODE.toString())).map(SandboxMounts.Mount::option)
                .containsExactly("--ro-bind");
        assertThat(mounts).filteredOn(mount -> mount.option().equals("--dir")).map(SandboxMounts.Mount::target)
                .containsExactly(DATA + "/jobs", DATA + "/jobs/a", DATA + "/jobs/a/b", DATA + "/jobs/a/b/work",
                        DATA + "/storage", DATA + "/checkpoints", DATA + "/checkpoints/a");
    }

    @Test
    void whatTheLoaderReadsIsSetOnlyInsideTheSandboxSoThatNoProgramBuildingItLoadsIt() {
        Sandbox sandbox = Sandbox.create(Sandbox.Mode.AUTO, false, DATA, Sandbox.Hidden.NOTHING, USERS, MAX_PROCESSES);
        assumeThat(sandbox.usesBubblewrap()).as("bubblewrap works here").isTrue();

        Sandbox.Start start = sandbox.start("python train.py", DIRS, null,
                Map.of("LD_PRELOAD", "/data/evil.so", "GCONV_PATH", "/data", "PATH", "/data/bin:/usr/bin"), List.of());

        assertThat(start.environment()).containsOnlyKeys("PATH");
        assertThat(start.command()).containsSubsequence("--setenv", "LD_PRELOAD", "/data/evil.so")
                .containsSubsequence("--unshare-user", "--cap-drop", "ALL")
                .allMatch(arg -> !arg.endsWith("bwrap") || arg.startsWith("/")); // found on the service's PATH
    }
}
