package io.paddlejobs.packages;

import io.paddlejobs.backend.local.LocalProperties;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.JobService;
import java.nio.file.Path;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Code packages are kept whichever backend runs the jobs. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PackagesProperties.class)
class PackagesConfig {

    private static final Logger log = LoggerFactory.getLogger(PackagesConfig.class);

    @Bean
    PackageStore packageStore(PackagesProperties properties, BackendProperties backend,
                              ObjectProvider<LocalProperties> local) {
        if (backend.backend() == BackendProperties.Kind.LOCAL) {
            local.ifAvailable(settings -> warnWhenOutsideDataRoot(properties.dir(), settings.dataRoot()));
        }
        return new PackageStore(properties, backend.minFreeSpace());
    }

    /**
     * The local backend's sandbox hides its data root from jobs; packages kept elsewhere (and their
     * {@code .url-key}) are readable by every local job.
     */
    private static void warnWhenOutsideDataRoot(Path dir, Path localDataRoot) {
        Path dataRoot = localDataRoot.toAbsolutePath().normalize();
        if (!dir.toAbsolutePath().normalize().startsWith(dataRoot)) {
            log.warn("paddlejobs.packages.dir ({}) lies outside paddlejobs.local.data-root ({}): the sandbox does not "
                    + "hide it, so every local job can read every namespace's packages and the content URL key. "
                    + "Keep it under the data root.", dir, dataRoot);
        }
    }

    @Bean
    UploadLimits uploadLimits(PackagesProperties properties) {
        return new UploadLimits(properties, System::nanoTime);
    }

    /** None when {@code expire-after} is 0: packages are then kept until deleted. */
    @Bean
    PackageSweep packageSweep(PackagesProperties properties, PackageStore store, JobService jobs) {
        PackageSweep sweep = new PackageSweep(store, namespace -> jobs.unfinishedJobsByPackage(namespace).keySet(),
                properties.expireAfter(), Clock.systemUTC());
        return properties.expireAfter().isZero() ? sweep : sweep.every(properties.sweepInterval());
    }
}
