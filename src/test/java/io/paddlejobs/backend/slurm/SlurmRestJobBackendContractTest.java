package io.paddlejobs.backend.slurm;

import org.junit.jupiter.api.Tag;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The port's contract on the Slurm backend with {@code paddlejobs.slurm.client=rest}: slurmrestd with a JWT the service mints. */
@Tag("slurm")
class SlurmRestJobBackendContractTest extends SlurmJobBackendContractTest {

    @Override
    Map<String, String> settings(Path sharedDir) {
        Map<String, String> settings = new HashMap<>(super.settings(sharedDir));
        settings.put("paddlejobs.slurm.client", "rest");
        settings.put("paddlejobs.slurm.rest-url", SlurmCluster.current().restUrl());
        settings.put("paddlejobs.slurm.jwt-key", SlurmCluster.current().jwtKey());
        // The test cluster's files belong to root; jobs run as the token's user.
        settings.put("paddlejobs.slurm.rest-user", "root");
        // No Slurm configuration of the service's own: only slurmrestd is used.
        settings.put("paddlejobs.slurm.slurm-conf", "/nonexistent/slurm.conf");
        settings.put("paddlejobs.slurm.bin-dir", "/nonexistent");
        return settings;
    }
}
