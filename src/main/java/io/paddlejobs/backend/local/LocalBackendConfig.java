package io.paddlejobs.backend.local;

import io.paddlejobs.backend.CodePackages;
import io.paddlejobs.backend.JobBackend;
import io.paddlejobs.planning.JobPlanner;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The embedded default: {@code paddlejobs.backend=local}, or nothing set. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "paddlejobs.backend", havingValue = "local", matchIfMissing = true)
@EnableConfigurationProperties(LocalProperties.class)
class LocalBackendConfig {

    private static final Logger log = LoggerFactory.getLogger(LocalBackendConfig.class);

    @Bean
    JobBackend localJobBackend(LocalProperties properties, JobPlanner planner, JsonMapper json, CodePackages packages) {
        var store = new JobRecordStore(properties.jobsDir(), json);
        var backend = new LocalJobBackend(properties, planner, store, Clock.systemUTC(), packages);
        backend.recover();
        log.info("Local backend: job files under {}, at most {} jobs running at once",
                properties.dataRoot().toAbsolutePath().normalize(), properties.maxRunningJobs());
        return backend;
    }
}
