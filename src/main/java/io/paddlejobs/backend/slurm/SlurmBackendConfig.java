package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.SecretsProperties;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.backend.slurm.client.SlurmCli;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.Tenancy;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The Slurm backend, chosen with {@code paddlejobs.backend=slurm}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "paddlejobs.backend", havingValue = "slurm")
@EnableConfigurationProperties({SlurmProperties.class, SecretsProperties.class, StackProperties.class})
class SlurmBackendConfig {

    private static final Logger log = LoggerFactory.getLogger(SlurmBackendConfig.class);

    @Bean
    JobBackend slurmJobBackend(SlurmProperties slurm, BackendProperties shared, JsonMapper json, Tenancy tenancy,
                               RestartBackoff backoff, SecretsProperties secrets, StackProperties stacks) {
        SlurmProperties properties = slurm.withShared(shared);
        properties.requireSharedFilesAccepted(tenancy.securityMode());
        properties.requireUnprivilegedSubmitter(tenancy.securityMode());
        if (tenancy.shared() && properties.client() == SlurmProperties.ClientKind.CLI) {
            properties.requireJobsApartFromTheService(tenancy.securityMode(),
                    ServiceHostReach.here(new SlurmCli(properties.slurmConf(), properties.binDir())));
        }
        var backend = new SlurmJobBackend(properties, SlurmClient.of(properties), new SlurmRecords(properties.directories(), json),
                Clock.systemUTC(), backoff, secrets.toStore(), tenancy.shared());
        backend.useStacks(stacks);
        backend.start();
        log.info("Slurm backend ({}): job files under {}, partition {}", properties.client(),
                properties.sharedDir().toAbsolutePath().normalize(),
                properties.partition().isEmpty() ? "(the cluster's default)" : properties.partition());
        properties.sharedUserNotice(tenancy.securityMode()).ifPresent(log::warn);
        return backend;
    }
}
