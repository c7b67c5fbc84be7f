package io.paddlejobs.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real control plane of its own with the real Kueue and JobSet controllers beside it
 * ({@link KueueControllers}), for the test classes that use this extension: started once per test
 * run, stopped when the JVM exits. Its own, not {@link RealCluster}'s: with JobSet's CRD served,
 * Kueue's webhooks called for every Job and pod, the other cluster tests would no longer judge a
 * bare cluster. Two fake nodes with 16 CPUs, 64Gi and 4 GPUs each; no ClusterQueue until a test
 * makes one ({@link KueueQueues}). Where the binaries are not built the classes are skipped,
 * unless {@code -Dkueue.required=true} makes that a failure (as on CI).
 */
public final class KueueCluster implements BeforeAllCallback {

    private static ControlPlane plane;
    private static String startFailure;

    @Override
    public void beforeAll(ExtensionContext context) {
        plane();
    }

    public static synchronized ControlPlane plane() {
        if (plane == null && startFailure == null) {
            start();
        }
        if (startFailure != null) {
            if (Boolean.getBoolean("kueue.required")) {
                fail(startFailure + " (-Dkueue.required=true makes this a failure)");
            }
            Assumptions.abort(startFailure);
        }
        return plane;
    }

    private static void start() {
        var missing = ClusterBinaries.missing().or(KueueBinaries::missing);
        if (missing.isPresent()) {
            startFailure = missing.get();
            return;
        }
        KueueControllers controllers = null;
        try {
            Path work = Files.createTempDirectory("paddle-jobs-kueue-");
            Instant begin = Instant.now();
            plane = ControlPlane.start(ClusterBinaries.dir(), work);
            FakeNodes.add(plane.admin(), "node-a", 16, "64Gi", 4);
            FakeNodes.add(plane.admin(), "node-b", 16, "64Gi", 4);
            controllers = KueueControllers.start(plane, KueueBinaries.dir());
            System.out.printf("control plane with Kueue and JobSet ready in %d ms; resident MiB %s%n",
                    Duration.between(begin, Instant.now()).toMillis(), plane.residentMiB());
            KueueControllers running = controllers;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                running.stop();
                plane.stop();
                RealCluster.delete(work);
            }, "kueue-cluster-stop"));
        } catch (IOException | RuntimeException e) {
            startFailure = "the control plane with Kueue and JobSet did not start: " + e.getMessage();
            if (controllers != null) {
                controllers.stop();
            }
            if (plane != null) {
                plane.stop();
                plane = null;
            }
        }
    }
}
