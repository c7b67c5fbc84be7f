package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.sandbox.CgroupLimits;
import io.paddlejobs.backend.local.schedule.GpuDevice;
import io.paddlejobs.backend.local.schedule.MachineCapacity;
import io.paddlejobs.backend.local.schedule.NvidiaSmi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/** What the machine may hand out, learnt at start: nvidia-smi, the settings, cgroup v2 limits (a stand-in tree). */
class CapacityDetectionTest {

    @TempDir
    Path dir;

    private LocalProperties settings(List<String> gpus, String nvidiaSmi, DataSize memory, Integer cpus) {
        List<Object> keys = new ArrayList<>(List.of("gpus", String.join(",", gpus), "nvidia-smi", nvidiaSmi));
        if (memory != null) {
            keys.addAll(List.of("memory", memory));
        }
        if (cpus != null) {
            keys.addAll(List.of("cpus", cpus));
        }
        return LocalBackendFixture.properties(dir.resolve("data"), keys.toArray());
    }

    /** A cgroup v2 tree where this process sits in {@code jobs/service} under limits of its own and its parent's. */
    private CgroupLimits cgroupTree(String parentMemory, String ownMemory, String ownCpu) throws Exception {
        Path own = Files.createDirectories(dir.resolve("cgroup/jobs/service"));
        Files.writeString(own.getParent().resolve("memory.max"), parentMemory + "\n");
        Files.writeString(own.resolve("memory.max"), ownMemory + "\n");
        Files.writeString(own.resolve("cpu.max"), ownCpu + "\n");
        Path self = Files.writeString(dir.resolve("self-cgroup"), "0::/jobs/service\n");
        return new CgroupLimits(dir.resolve("cgroup"), self);
    }

    @Test
    void noNvidiaSmiOrOneThatFailsMeansNoGpus() throws Exception {
        Path failing = Files.writeString(dir.resolve("nvidia-smi"), "#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n");
        Files.setPosixFilePermissions(failing, PosixFilePermissions.fromString("rwx------"));

        assertThat(NvidiaSmi.list(dir.resolve("absent").toString())).isEmpty();
        assertThat(NvidiaSmi.list(failing.toString())).isEmpty();
    }

    @Test
    void nvidiaSmiLinesAreReadEvenWithCommasInTheName() {
        assertThat(NvidiaSmi.parse("0, GPU-a, NVIDIA A100-SXM4-80GB, 81920\n1, GPU-b, Tesla V100, PCIe, [N/A]\n"))
                .containsExactly(new GpuDevice(0, "GPU-a", "NVIDIA A100-SXM4-80GB", 81920L),
                        new GpuDevice(1, "GPU-b", "Tesla V100, PCIe", null));
    }

    @Test
    void theSmallestCgroupLimitOnTheWayUpIsWhatJobsMayUse() throws Exception {
        CgroupLimits limits = cgroupTree("4294967296", "max", "150000 100000");

        MachineCapacity capacity = MachineCapacity.detect(settings(List.of("none"), "nvidia-smi", null, null), limits,
                Path.of("/proc/meminfo"));

        assertThat(capacity.memory()).isEqualTo(Memory.parse("4Gi"));
        assertThat(capacity.cpus()).isEqualTo(new Cpu(1500));
        assertThat(capacity.origin()).contains("memory from this process's cgroup", "CPUs from this process's cgroup");
    }

    @Test
    void settingsWinOverCgroupLimitsAndMachine() throws Exception {
        CgroupLimits limits = cgroupTree("4294967296", "max", "150000 100000");

        MachineCapacity capacity = MachineCapacity.detect(settings(List.of("none"), "nvidia-smi",
                DataSize.ofGigabytes(100), 16), limits, Path.of("/proc/meminfo"));

        assertThat(capacity.memory()).isEqualTo(Memory.parse("100Gi"));
        assertThat(capacity.cpus()).isEqualTo(Cpu.cores(16));
    }

    @Test
    void aConfiguredUuidTheDriverDoesNotListStopsTheStartSayingWhich() throws Exception {
        Path smi = FakeGpus.nvidiaSmi(dir, 2);
        CgroupLimits none = new CgroupLimits(dir.resolve("no-cgroup"), dir.resolve("no-self"));

        assertThatThrownBy(() -> MachineCapacity.detect(settings(List.of("GPU-nope"), smi.toString(), null, null), none,
                Path.of("/proc/meminfo"))).hasMessageContaining("GPU-nope", "nvidia-smi does not list");
        assertThatThrownBy(() -> MachineCapacity.detect(settings(List.of("first"), smi.toString(), null, null), none,
                Path.of("/proc/meminfo"))).hasMessageContaining("'first' is neither");
        assertThat(MachineCapacity.detect(settings(List.of(), smi.toString(), null, null), none, Path.of("/proc/meminfo"))
                .gpus()).hasSize(2);
    }
}
