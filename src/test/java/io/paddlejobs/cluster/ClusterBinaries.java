package io.paddlejobs.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Where .ci/prepare-cluster put the control plane's binaries: {@code -Dcluster.bin=} when given,
 * else the cache directory it derives from the Go module's go.mod and go.sum, exactly as the
 * script does, so that a changed module never runs against stale binaries.
 */
final class ClusterBinaries {

    static final List<String> PROGRAMS = List.of("etcd", "kube-apiserver", "kube-controller-manager",
            "kube-scheduler", "kwok");

    private ClusterBinaries() {
    }

    static Path dir() {
        String given = System.getProperty("cluster.bin", "");
        return given.isBlank() ? cacheDir() : Path.of(given);
    }

    /** Why the binaries cannot be used, or empty when they all are there. */
    static Optional<String> missing() {
        Path dir = dir();
        List<String> absent = PROGRAMS.stream().filter(p -> !Files.isExecutable(dir.resolve(p))).toList();
        return absent.isEmpty() ? Optional.empty()
                : Optional.of("no " + String.join(", ", absent) + " in " + dir + ": build them with .ci/prepare-cluster"
                        + " (needs Go), or name their directory with -Dcluster.bin=");
    }

    private static Path cacheDir() {
        return cache().resolve("cluster").resolve(moduleKey("src/test/cluster")).resolve("bin");
    }

    /** {@code $PADDLEJOBS_CACHE}, else {@code ~/.cache/paddle-jobs}, as the prepare scripts have it. */
    static Path cache() {
        String root = System.getenv("PADDLEJOBS_CACHE");
        return root == null || root.isBlank() ? Path.of(System.getProperty("user.home"), ".cache", "paddle-jobs")
                : Path.of(root);
    }

    /** The first 16 hex digits of sha256(go.mod followed by go.sum) of a Go module, as the prepare scripts hash it. */
    static String moduleKey(String moduleDir) {
        Path module = Path.of(System.getProperty("project.basedir", ".")).resolve(moduleDir);
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(Files.readAllBytes(module.resolve("go.mod")));
            sha.update(Files.readAllBytes(module.resolve("go.sum")));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (IOException | NoSuchAlgorithmException e) {
            return "unknown-module";
        }
    }
}
