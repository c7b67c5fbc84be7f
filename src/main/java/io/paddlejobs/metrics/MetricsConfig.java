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
        requireEveryTrainerHeard(backend.backend(), planning.limits().maxTrainers(), limits.trainersFollowed());
        return new MetricsCollector(jobs, limits, Clock.systemUTC(), archive);
    }

    /**
     * On Kubernetes a trainer is heard only through the follow of its log that the metrics make: a trainer past
     * {@code trainers-followed} would count as silent from its start, and a {@code stall_timeout} would fail a
     * job that prints. Such settings are refused at start rather than left to misjudge a job.
     */
    static void requireEveryTrainerHeard(BackendProperties.Kind backend, int maxTrainers, int trainersFollowed) {
        if (backend == BackendProperties.Kind.KUBERNETES && maxTrainers > trainersFollowed) {
            throw new IllegalStateException(("paddlejobs.limits.max-trainers=%d is above paddlejobs.metrics.trainers-followed=%d:"
                    + " on Kubernetes a trainer is heard only through the follow of its log, and stall_timeout would count"
                    + " trainers past %d as silent. Raise paddlejobs.metrics.trainers-followed to at least %d.")
                    .formatted(maxTrainers, trainersFollowed, trainersFollowed, maxTrainers));
        }
    }
}
