package io.paddlejobs.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kubernetes control plane for the test classes that use this extension, started once
 * per test run (the first class to need it starts it) and stopped when the JVM exits. Where the
 * binaries are not built the classes are skipped, unless {@code -Dcluster.required=true} makes
 * that a failure (as on CI).
 *
 * <p>Two fake nodes are there from the start, with 16 CPUs, 64Gi and 4 GPUs each.
 */
public final class RealCluster implements BeforeAllCallback {

    private static ControlPlane plane;
    private static String startFailure;

    @Override
    public void beforeAll(ExtensionContext context) {
        plane();
    }

    /** The running control plane; skips or fails the calling test where there is none. */
    public static synchronized ControlPlane plane() {
        if (plane == null && startFailure == null) {
            start();
        }
        if (startFailure != null) {
            if (Boolean.getBoolean("cluster.required")) {
                fail(startFailure + " (-Dcluster.required=true makes this a failure)");
            }
            Assumptions.abort(startFailure);
        }
        return plane;
    }

    private static void start() {
        var missing = ClusterBinaries.missing();
        if (missing.isPresent()) {
            startFailure = missing.get();
            return;
        }
        try {
            Path work = Files.createTempDirectory("paddle-jobs-cluster-");
            Instant begin = Instant.now();
            plane = ControlPlane.start(ClusterBinaries.dir(), work);
            FakeNodes.add(plane.admin(), "node-a", 16, "64Gi", 4);
            FakeNodes.add(plane.admin(), "node-b", 16, "64Gi", 4);
            System.out.printf("real control plane ready in %d ms; resident MiB %s%n",
                    Duration.between(begin, Instant.now()).toMillis(), plane.residentMiB());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                System.out.printf("real control plane at the end of the run: resident MiB %s%n", plane.residentMiB());
                plane.stop();
                delete(work);
            }, "real-cluster-stop"));
        } catch (IOException | RuntimeException e) {
            startFailure = "the real control plane did not start: " + e.getMessage();
            if (plane != null) {
                plane.stop();
                plane = null;
            }
        }
    }

    static void delete(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; the OS cleans it up eventually
        }
    }
}
