package io.paddlejobs.testing;

import static org.assertj.core.api.Assertions.fail;

import io.paddlejobs.backend.PySpy;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.job.StacksUnavailableException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/**
 * py-spy for the tests that take stack dumps: {@code -Dpyspy.path=...} (as {@code .ci/prepare-pyspy} prints it), else
 * {@code py-spy} on PATH. Without it such a test skips, or fails where {@code -Dpyspy.required=true} says it must run.
 */
public final class PySpyInstalled {

    private PySpyInstalled() {
    }

    /** What {@code paddlejobs.stacks.py-spy} is set to in tests. */
    public static String setting() {
        return System.getProperty("pyspy.path", "py-spy");
    }

    /** Its path; skips the test (or fails it, when required) where it is not installed. */
    public static Path orSkip() {
        try {
            return new PySpy(new StackProperties(setting(), Duration.ofSeconds(1), 1)).program();
        } catch (StacksUnavailableException missing) {
            if (Boolean.getBoolean("pyspy.required")) {
                fail("py-spy is required (-Dpyspy.required=true) but was not found: " + missing.getBody().getDetail());
            }
            Assumptions.abort("py-spy is not installed (.ci/prepare-pyspy prints its path for -Dpyspy.path=...)");
            return null;
        }
    }
}
