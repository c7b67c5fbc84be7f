package io.paddlejobs.image;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The image .ci/prepare-image built from the Dockerfile, and podman and buildah configured as that
 * script left them (its storage.conf and containers.conf, under {@code -Dimage.dir=} or the cache directory).
 * Without them a test is skipped, unless {@code -Dimage.required=true} makes that a failure (as on CI).
 */
final class PreparedImage {

    static final String NAME = "localhost/paddle-jobs:latest";

    private static final long COMMAND_SECONDS = 120;

    private PreparedImage() {
    }

    /** The directory with the storage and the two configuration files; skips or fails where there is no image. */
    static Path dir() {
        Path dir = configuredDir();
        String missing = null;
        if (!Files.isRegularFile(dir.resolve("storage.conf")) || !Files.isRegularFile(dir.resolve("containers.conf"))) {
            missing = "no image storage in " + dir + ": build the image with .ci/prepare-image, or name its directory with -Dimage.dir=";
        } else if (run(dir, "podman", List.of("image", "exists", NAME)).exitCode() != 0) {
            missing = "no " + NAME + " in " + dir + ": build it with .ci/prepare-image";
        }
        if (missing != null) {
            if (Boolean.getBoolean("image.required")) {
                fail(missing + " (-Dimage.required=true makes this a failure)");
            }
            Assumptions.abort(missing);
        }
        return dir;
    }

    /** podman with these arguments, its output (stdout and stderr together) and exit code. */
    static Result podman(String... arguments) {
        return run(dir(), "podman", List.of(arguments));
    }

    static Result buildah(String... arguments) {
        return run(dir(), "buildah", List.of(arguments));
    }

    static String buildahOk(String... arguments) {
        return ok("buildah", buildah(arguments), arguments);
    }

    /** As {@link #podman}, failing unless it exits 0. */
    static String podmanOk(String... arguments) {
        return ok("podman", podman(arguments), arguments);
    }

    private static String ok(String tool, Result result, String... arguments) {
        if (result.exitCode() != 0) {
            throw new IllegalStateException(tool + " " + String.join(" ", arguments) + " exited " + result.exitCode()
                    + ":\n" + result.output());
        }
        return result.output();
    }

    /** The environment that makes podman and buildah use the prepared storage and settings. */
    static void configure(ProcessBuilder builder, Path dir) {
        builder.environment().put("CONTAINERS_STORAGE_CONF", dir.resolve("storage.conf").toString());
        builder.environment().put("CONTAINERS_CONF", dir.resolve("containers.conf").toString());
        builder.environment().put("TMPDIR", dir.resolve("tmp").toString());
    }

    record Result(int exitCode, String output) {
    }

    private static Result run(Path dir, String tool, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(tool));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        configure(builder, dir);
        try {
            Path output = Files.createTempFile("podman-", ".out");
            try {
                Process process = builder.redirectOutput(output.toFile()).start();
                if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                    return new Result(-1, tool + " " + String.join(" ", arguments) + " took over " + COMMAND_SECONDS + " s");
                }
                return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            return new Result(-1, tool + " could not be run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    private static Path configuredDir() {
        String given = System.getProperty("image.dir", "");
        if (!given.isBlank()) {
            return Path.of(given);
        }
        String root = System.getenv("PADDLEJOBS_CACHE");
        Path cache = root == null || root.isBlank() ? Path.of(System.getProperty("user.home"), ".cache", "paddle-jobs")
                : Path.of(root);
        return cache.resolve("image");
    }
}
