package io.paddlejobs.metrics;

import io.paddlejobs.job.JobBackend;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MetricsProperties.class)
class MetricsConfig {

    @Bean
    MetricsCollector metricsCollector(JobBackend jobs, MetricsProperties limits, MetricsArchive archive) {
        return new MetricsCollector(jobs, limits, Clock.systemUTC(), archive);
    }
}
