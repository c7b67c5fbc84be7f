package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.sandbox.GpuDeviceNodes;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import io.paddlejobs.backend.local.sandbox.SandboxMounts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A confined replica sees the device nodes of its own GPUs and the driver's control nodes, no other
 * GPU's, and none without GPUs. Real bubblewrap, over regular files standing in for the nodes (the
 * host's /dev is not the tests' to change).
 */
class GpuSandboxTest {

    @TempDir
    Path dir;

    private Sandbox confining() {
        LocalProperties properties = LocalBackendFixture.properties(dir);
        Sandbox sandbox = Sandbox.create(Sandbox.Mode.AUTO, true, dir, Sandbox.Hidden.NOTHING,
                properties.sandboxUsers(), properties.maxProcesses());
        assumeThat(sandbox.confinesFiles()).as("bubblewrap works here").isTrue();
        return sandbox;
    }

    @Test
    void aConfinedReplicaSeesOnlyItsOwnGpuNodesAndTheDriversControlNodes() throws Exception {
        confining();
        Path fakeDev = Files.createDirectories(dir.resolve("dev"));
        for (String node : List.of("nvidia0", "nvidia1", "nvidia2", "nvidia3", "nvidiactl", "nvidia-uvm")) {
            Files.writeString(fakeDev.resolve(node), node);
        }
        GpuDeviceNodes nodes = new GpuDeviceNodes(fakeDev);

        assertThat(nodes.present(List.of(1, 3))).containsExactly("nvidia1", "nvidia3", "nvidiactl", "nvidia-uvm");
        assertThat(nvidiaNodesSeenWith(fakeDev, nodes.present(List.of(1, 3))))
                .containsExactlyInAnyOrder("nvidia1", "nvidia3", "nvidiactl", "nvidia-uvm");
        assertThat(nodes.present(List.of())).isEmpty();
        assertThat(nvidiaNodesSeenWith(fakeDev, nodes.present(List.of()))).isEmpty();
    }

    @Test
    void theSandboxBindsTheHostNodesOfTheReplicasGpusOnlyAndNoneWithout() {
        Sandbox sandbox = confining();

        var dirs = new JobWorkspace.ReplicaDirectories(dir.resolve("work"), null, dir.resolve("storage"),
                dir.resolve("checkpoints"));
        List<SandboxMounts.Mount> withGpu = sandbox.mounts(dirs, List.of(2));
        List<SandboxMounts.Mount> without = sandbox.mounts(dirs, List.of());

        assertThat(withGpu).filteredOn(mount -> mount.target().startsWith("/dev/nvidia"))
                .extracting(SandboxMounts.Mount::target)
                .containsExactlyElementsOf(GpuDeviceNodes.HOST.present(List.of(2)).stream().map(n -> "/dev/" + n).toList())
                .noneMatch(target -> target.matches("/dev/nvidia[013]"));
        assertThat(without).noneMatch(mount -> mount.target().contains("nvidia"));
    }

    /** The nvidia nodes a shell lists in a sandbox's /dev, built as the sandbox builds it, with these nodes bound. */
    private static List<String> nvidiaNodesSeenWith(Path devRoot, List<String> nodes) throws Exception {
        var mounts = new SandboxMounts().readOnly("/", Path.of("/")).system("--dev", "/dev");
        nodes.forEach(node -> mounts.withDevices(devRoot.resolve(node).toString(), Path.of("/dev", node)));
        List<String> command = new ArrayList<>(List.of("bwrap"));
        mounts.system("--proc", "/proc").list().forEach(mount -> command.addAll(mount.args()));
        command.addAll(List.of("--unshare-pid", "--", "sh", "-c", "ls /dev"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines().filter(name -> name.startsWith("nvidia")).toList();
    }
}
