package io.paddlejobs.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where .ci/prepare-kueue put the Kueue and JobSet controllers and their manifests:
 * {@code -Dkueue.dir=} when given, else the cache directory it derives from the Go module in
 * {@code src/test/kueue}, as the script does.
 */
final class KueueBinaries {

    private KueueBinaries() {
    }

    static Path dir() {
        String given = System.getProperty("kueue.dir", "");
        return given.isBlank() ? ClusterBinaries.cache().resolve("kueue").resolve(ClusterBinaries.moduleKey("src/test/kueue"))
                : Path.of(given);
    }

    /** Why the controllers cannot be used, or empty when they are all there. */
    static Optional<String> missing() {
        Path dir = dir();
        boolean complete = Files.isExecutable(dir.resolve("bin/kueue")) && Files.isExecutable(dir.resolve("bin/jobset"))
                && Files.isDirectory(dir.resolve("crds")) && Files.isDirectory(dir.resolve("webhooks"));
        if (!complete) {
            return Optional.of("no Kueue and JobSet build in " + dir
                    + ": build them with .ci/prepare-kueue (needs Go), or name the directory with -Dkueue.dir=");
        }
        boolean bwrap = java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(path -> !path.isEmpty() && Files.isExecutable(Path.of(path, "bwrap")));
        return bwrap ? Optional.empty() : Optional.of("no bwrap (bubblewrap), which Kueue runs under: apt-get install bubblewrap");
    }
}
