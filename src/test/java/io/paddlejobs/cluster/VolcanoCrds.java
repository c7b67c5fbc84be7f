package io.paddlejobs.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Volcano's API (PodGroup, Queue of {@code scheduling.volcano.sh/v1beta1}) on the {@link RealCluster}: the
 * CustomResourceDefinitions that .ci/prepare-volcano generates from the Go types of {@code volcano.sh/apis}
 * (Volcano's scheduler itself is not served as a Go module here, so no Volcano scheduler runs: a test plays its
 * part). {@code -Dvolcano.crds=DIR} names the folder, else it is the cache folder the script derives from the Go
 * module in {@code src/test/volcano}. Without it the calling test is skipped, unless {@code -Dvolcano.required=true}
 * makes that a failure (as on CI). A CRD with no webhook or controller behind it: the other cluster tests still
 * judge a bare cluster.
 */
public final class VolcanoCrds {

    private static boolean installed;
    private static String failure;

    private VolcanoCrds() {
    }

    /** The control plane, with Volcano's CRDs installed. */
    public static synchronized ControlPlane plane() {
        ControlPlane plane = RealCluster.plane();
        if (!installed && failure == null) {
            failure = missing().orElse(null);
            if (failure == null) {
                try {
                    Crds.install(plane.admin(), dir());
                    installed = true;
                } catch (IOException | RuntimeException e) {
                    failure = "Volcano's CRDs could not be installed: " + e.getMessage();
                }
            }
        }
        if (failure != null) {
            if (Boolean.getBoolean("volcano.required")) {
                fail(failure + " (-Dvolcano.required=true makes this a failure)");
            }
            Assumptions.abort(failure);
        }
        return plane;
    }

    static Path dir() {
        String given = System.getProperty("volcano.crds", "");
        return given.isBlank() ? ClusterBinaries.cache().resolve("volcano")
                .resolve(ClusterBinaries.moduleKey("src/test/volcano")).resolve("crds") : Path.of(given);
    }

    private static Optional<String> missing() {
        Path dir = dir();
        return Files.isRegularFile(dir.resolve("scheduling.volcano.sh_podgroups.yaml")) ? Optional.empty()
                : Optional.of("no Volcano CRDs in " + dir + ": generate them with .ci/prepare-volcano (needs Go), "
                        + "or name the folder with -Dvolcano.crds=");
    }
}
