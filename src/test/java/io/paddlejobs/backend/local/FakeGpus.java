package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.schedule.NvidiaSmi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A machine with GPUs, for tests on machines without: an {@code nvidia-smi} script that answers the
 * one query the service makes as the real one does, and settings that use it.
 */
final class FakeGpus {

    static final String UUID_PREFIX = "GPU-5f1c0ad2-0000-4000-8000-00000000000";

    private FakeGpus() {
    }

    /** The UUID the fake gives GPU {@code index}. */
    static String uuid(int index) {
        return UUID_PREFIX + index;
    }

    /**
     * Writes {@code dir/nvidia-smi}, listing {@code count} GPUs; any other question than the service's
     * is an error, as the real one's would be.
     */
    static Path nvidiaSmi(Path dir, int count) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < count; i++) {
            lines.append(i).append(", ").append(uuid(i)).append(", NVIDIA H100 80GB HBM3, 81559\n");
        }
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, """
                #!/bin/sh
                if [ "$*" != "%s" ]; then echo "unexpected arguments: $*" >&2; exit 2; fi
                cat <<'GPUS'
                %sGPUS
                """.formatted(String.join(" ", NvidiaSmi.QUERY), lines));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    /** Local settings with these GPUs (empty: detect), this {@code nvidia-smi}, and room for every job's memory and CPUs. */
    static LocalProperties properties(Path dataRoot, int maxRunningJobs, List<String> gpus, Path nvidiaSmi) {
        return LocalBackendFixture.properties(dataRoot, "max-running-jobs", maxRunningJobs, "gpus", String.join(",", gpus),
                "nvidia-smi", nvidiaSmi, "memory", "64GB", "cpus", 64);
    }
}
