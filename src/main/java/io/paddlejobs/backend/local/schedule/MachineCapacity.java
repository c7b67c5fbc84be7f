package io.paddlejobs.backend.local.schedule;

import io.paddlejobs.backend.local.LocalProperties;
import io.paddlejobs.backend.local.sandbox.CgroupLimits;
import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What this machine may hand out to jobs, learnt once at start: GPUs from {@code paddlejobs.local.gpus}
 * or else {@code nvidia-smi}; memory and CPUs from {@code paddlejobs.local.memory}/{@code cpus}, or
 * else the cgroup v2 limits on this process, or else the machine's own.
 *
 * @param cpus     the CPUs this process may use (not yet multiplied by the oversubscription factor)
 * @param origin   where each number came from, in words for the start-up line
 */
public record MachineCapacity(List<GpuDevice> gpus, Memory memory, Cpu cpus, String origin) {

    public MachineCapacity {
        gpus = List.copyOf(gpus);
    }

    /**
     * @throws IllegalStateException when {@code paddlejobs.local.gpus} names a UUID the driver does not list,
     *                               or an entry that is neither an index nor a UUID
     */
    public static MachineCapacity detect(LocalProperties properties, CgroupLimits cgroup, Path meminfo) {
        List<String> origins = new ArrayList<>();
        List<GpuDevice> gpus = gpus(properties.gpus(), () -> NvidiaSmi.list(properties.nvidiaSmi()), origins);

        Memory memory;
        if (properties.memory() != null) {
            memory = new Memory(properties.memory().toBytes());
            origins.add("memory from paddlejobs.local.memory");
        } else {
            Optional<Long> limit = cgroup.memoryBytes();
            long machine = machineMemory(meminfo);
            memory = new Memory(limit.map(bytes -> Math.min(bytes, machine)).orElse(machine));
            origins.add(limit.isPresent() && limit.get() < machine ? "memory from this process's cgroup"
                    : "memory of the machine");
        }

        Cpu cpus;
        if (properties.cpus() != null) {
            cpus = Cpu.cores(properties.cpus());
            origins.add("CPUs from paddlejobs.local.cpus");
        } else {
            Cpu machine = Cpu.cores(Runtime.getRuntime().availableProcessors());
            Optional<Cpu> limit = cgroup.cpus().filter(cpu -> cpu.millis() < machine.millis());
            cpus = limit.orElse(machine);
            origins.add(limit.isPresent() ? "CPUs from this process's cgroup" : "CPUs this process may run on");
        }
        return new MachineCapacity(gpus, memory, cpus, String.join(", ", origins));
    }

    private static List<GpuDevice> gpus(List<String> configured, Supplier<List<GpuDevice>> detect,
                                        List<String> origins) {
        if (configured.isEmpty()) {
            List<GpuDevice> detected = detect.get();
            origins.add(detected.isEmpty() ? "no GPUs found by nvidia-smi" : "GPUs from nvidia-smi");
            return detected;
        }
        if (configured.size() == 1 && configured.get(0).strip().toLowerCase(Locale.ROOT).equals("none")) {
            origins.add("no GPUs (paddlejobs.local.gpus=none)");
            return List.of();
        }
        List<GpuDevice> detected = detect.get();
        List<GpuDevice> gpus = new ArrayList<>();
        for (String entry : configured) {
            String id = entry.strip();
            GpuDevice gpu;
            if (id.matches("[0-9]{1,4}")) {
                int index = Integer.parseInt(id);
                gpu = detected.stream().filter(d -> d.index() == index).findFirst()
                        .orElse(new GpuDevice(index, null, "GPU " + index, null));
            } else if (id.startsWith("GPU-") || id.startsWith("MIG-")) {
                gpu = detected.stream().filter(d -> id.equals(d.uuid())).findFirst()
                        .orElseThrow(() -> new IllegalStateException("paddlejobs.local.gpus names " + id
                                + ", which nvidia-smi does not list" + (detected.isEmpty() ? " (it lists no GPUs)"
                                : " (it lists " + detected.stream().map(GpuDevice::uuid).toList() + ")")));
            } else {
                throw new IllegalStateException("paddlejobs.local.gpus: '" + id + "' is neither a GPU index (0, 1, ...),"
                        + " a UUID (GPU-...) nor 'none'");
            }
            if (gpus.stream().anyMatch(g -> g.index() == gpu.index())) {
                throw new IllegalStateException("paddlejobs.local.gpus names GPU " + gpu.index() + " twice");
            }
            gpus.add(gpu);
        }
        origins.add("GPUs from paddlejobs.local.gpus");
        return List.copyOf(gpus);
    }

    /** MemTotal of {@code /proc/meminfo}; where that cannot be read, what the JVM says the machine has. */
    private static long machineMemory(Path meminfo) {
        try {
            for (String line : Files.readAllLines(meminfo)) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean bean ? bean.getTotalMemorySize() : Long.MAX_VALUE;
    }

    /** For the start-up line: {@code 2 GPUs (0 NVIDIA H100, 1 NVIDIA H100), 23Gi memory, 2 CPUs}. */
    public String summary() {
        String devices = gpus.isEmpty() ? "no GPUs" : gpus.size() + (gpus.size() == 1 ? " GPU (" : " GPUs (")
                + String.join(", ", gpus.stream().map(g -> g.index() + " " + g.name()).toList()) + ")";
        return devices + ", " + Memory.ofMebibytes(memory.bytes() / (1024 * 1024)) + " memory, " + cpus + " CPUs";
    }
}
