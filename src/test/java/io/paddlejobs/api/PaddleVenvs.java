package io.paddlejobs.api;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The Paddle virtual environments that {@code .ci/prepare-paddle} builds, found through
 * {@code -Dpaddle.venvs} (default {@code $PADDLEJOBS_CACHE/venvs}, or {@code ~/.cache/paddle-jobs/venvs}).
 * A test whose venv is missing is skipped, unless {@code -Dpaddle.required=true} makes that a failure.
 */
public final class PaddleVenvs {

    private PaddleVenvs() {
    }

    /** The python of the venv with Paddle {@code version}, e.g. {@code 2.6.2}. */
    public static Path python(String version) {
        Path python = venvs().resolve("paddle-" + version).resolve("bin").resolve("python");
        if (!Files.isExecutable(python)) {
            String why = "no Paddle %s venv at %s (run .ci/prepare-paddle, or point -Dpaddle.venvs at them)"
                    .formatted(version, python.getParent().getParent());
            if (Boolean.getBoolean("paddle.required")) {
                fail(why + "; -Dpaddle.required=true makes that a failure");
            }
            Assumptions.abort(why);
        }
        return python;
    }

    /** Where the venv with Paddle {@code version} would be: for settings made before a test can skip. */
    public static Path expected(String version) {
        return venvs().resolve("paddle-" + version);
    }

    private static Path venvs() {
        String given = System.getProperty("paddle.venvs", "");
        if (!given.isBlank()) {
            return Path.of(given);
        }
        String cache = System.getenv("PADDLEJOBS_CACHE");
        Path root = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache", "paddle-jobs");
        return root.resolve("venvs");
    }
}
