package io.paddlejobs.testing;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files the build generates and the repository keeps (the contract, the Python client's module, the
 * configuration reference, golden files): with {@code -D<flag>=true} a test rewrites the file, otherwise
 * it fails when the committed one is not what the code generates, saying where and how to regenerate.
 */
public final class CommittedFiles {

    private CommittedFiles() {
    }

    /**
     * @param source     what generates the file, as the failure names it ("the served contract")
     * @param testClass  the test that regenerates it
     * @param updateFlag the system property that makes the test rewrite the file
     */
    public static void assertCurrent(Path file, String generated, String source, Class<?> testClass, String updateFlag)
            throws IOException {
        if (Boolean.getBoolean(updateFlag)) {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.writeString(file, generated, StandardCharsets.UTF_8);
        }
        String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        if (!generated.equals(committed)) {
            fail("""
                    %s is not what %s generates (%s).
                    If the change is meant, regenerate it and commit it:
                        ./mvnw test -Dtest=%s -D%s=true"""
                    .formatted(file, source, firstDifference(committed, generated), testClass.getSimpleName(), updateFlag));
        }
    }

    private static String firstDifference(String committed, String generated) {
        String[] a = committed.split("\n", -1);
        String[] b = generated.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String left = i < a.length ? a[i] : "<end of file>";
            String right = i < b.length ? b[i] : "<end of file>";
            if (!left.equals(right)) {
                return "first difference at line %d: committed '%s', generated '%s'".formatted(i + 1, left, right);
            }
        }
        return "they differ in line endings";
    }
}
