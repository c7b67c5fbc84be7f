package io.paddlejobs.backend.local.sandbox;

import io.paddlejobs.planning.Cpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The memory and CPU limits cgroup v2 puts on this process: the smallest {@code memory.max} and
 * {@code cpu.max} of its own cgroup and every cgroup above it. Only read: the service never writes
 * a cgroup it was not given ({@code paddlejobs.local.cgroup}).
 *
 * @param root       where the cgroup v2 hierarchy is mounted ({@code /sys/fs/cgroup})
 * @param selfCgroup this process's {@code /proc/self/cgroup}, whose {@code 0::<path>} line names its cgroup
 */
public record CgroupLimits(Path root, Path selfCgroup) {

    public static CgroupLimits ofThisProcess() {
        return new CgroupLimits(Path.of("/sys/fs/cgroup"), Path.of("/proc/self/cgroup"));
    }

    /** The lowest memory limit on the way up, in bytes; empty where none is set or there is no cgroup v2. */
    public Optional<Long> memoryBytes() {
        return smallest("memory.max", text -> text.equals("max") ? null : Double.valueOf(text));
    }

    /** The lowest CPU limit on the way up ({@code quota period}); empty where none is set. */
    public Optional<Cpu> cpus() {
        return smallest("cpu.max", text -> {
            String[] parts = text.split("\\s+");
            if (parts[0].equals("max") || parts.length < 2) {
                return null;
            }
            return Double.parseDouble(parts[0]) * 1000 / Double.parseDouble(parts[1]);
        }).map(millis -> new Cpu(Math.max(1, millis)));
    }

    private Optional<Long> smallest(String file, java.util.function.Function<String, Double> read) {
        Optional<Path> own = ownCgroup();
        Double smallest = null;
        for (Path dir = own.orElse(null); dir != null && dir.startsWith(root); dir = dir.getParent()) {
            try {
                Path limit = dir.resolve(file);
                if (Files.isReadable(limit)) {
                    Double value = read.apply(Files.readString(limit).strip());
                    if (value != null && (smallest == null || value < smallest)) {
                        smallest = value;
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                // a limit that cannot be read is no limit we can count on
            }
        }
        return Optional.ofNullable(smallest).map(Double::longValue);
    }

    private Optional<Path> ownCgroup() {
        try {
            return Files.readAllLines(selfCgroup).stream().filter(line -> line.startsWith("0::")).findFirst()
                    .map(line -> line.substring(3).replaceFirst("^/", ""))
                    .map(relative -> root.resolve(relative).normalize());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
