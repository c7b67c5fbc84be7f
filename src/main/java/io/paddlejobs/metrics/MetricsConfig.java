package io.paddlejobs.metrics;

import io.paddlejobs.config.PlanningProperties;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.JobBackend;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MetricsProperties.class)
class MetricsConfig {

    @Bean
    MetricsCollector metricsCollector(JobBackend jobs, MetricsProperties limits, MetricsArchive archive,
                                      BackendProperties backend, PlanningProperties planning) {
        limits.requireEveryTrainerHeard(backend.backend(), planning.limits().maxTrainers());
        return new MetricsCollector(jobs, limits, Clock.systemUTC(), archive);
    }
}
