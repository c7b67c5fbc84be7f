package io.paddlejobs.backend.local;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The local backend's settings ({@code paddlejobs.local.*}).
 *
 * @param dataRoot          job directories ({@code jobs/<namespace>/<job>}: record, logs, working
 *                          directory) and each namespace's storage ({@code storage/<namespace>})
 * @param maxRunningJobs    jobs running at once; the rest wait in order as {@code Pending}
 * @param stopGracePeriod   how long a replica has between SIGTERM and SIGKILL
 * @param firstPort         the allocated pserver ports start here ...
 * @param lastPort          ... and end here
 * @param pserverListenTimeout how long a running pserver may take to listen on its first port
 *                          before its job fails (its trainers would wait for it forever)
 */
@Validated
@ConfigurationProperties("paddlejobs.local")
public record LocalProperties(
        @DefaultValue("data") @NotNull Path dataRoot,
        @DefaultValue("4") @Min(1) int maxRunningJobs,
        @DefaultValue("5s") @NotNull Duration stopGracePeriod,
        @DefaultValue("21000") @Min(1024) @Max(65535) int firstPort,
        @DefaultValue("29999") @Min(1024) @Max(65535) int lastPort,
        @DefaultValue("120s") @NotNull Duration pserverListenTimeout) {

    Path jobsDir() {
        return dataRoot.resolve("jobs");
    }

    Path storageDir(String namespace) {
        return dataRoot.resolve("storage").resolve(namespace);
    }
}
