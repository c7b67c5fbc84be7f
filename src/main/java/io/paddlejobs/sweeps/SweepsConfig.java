package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobService;
import io.paddlejobs.metrics.MetricsCollector;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/** Sweeps on the history's database, driven by a thread of each replica. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SweepsProperties.class)
class SweepsConfig {

    @Bean
    SweepStore sweepStore(JdbcClient db, JsonMapper json) {
        return new SweepStore(db, json);
    }

    @Bean(destroyMethod = "close")
    SweepDriver sweepDriver(SweepStore store, JobService jobs, MetricsCollector metrics, JobRequests requests,
                            SweepsProperties properties) {
        return new SweepDriver(store, jobs, metrics, requests, Clock.systemUTC(), properties);
    }

    /**
     * The driver's first look comes once the context is up (the store's schema migrated, the backend's jobs
     * read back), and its claims are given up at the start of a stop, before the jobs' backend stops.
     */
    @Bean
    SmartLifecycle sweepDriverLifecycle(SweepDriver driver) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                driver.start();
                running = true;
            }

            @Override
            public void stop() {
                try {
                    driver.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }
        };
    }

    @Bean
    Sweeps sweeps(SweepStore store, JobRequests requests, JobService jobs, SweepDriver driver, MetricsCollector metrics) {
        return new Sweeps(store, new SweepPlanner(requests, jobs), driver, jobs, metrics, requests, Clock.systemUTC());
    }

    @Bean
    Comparisons comparisons(JobService jobs, MetricsCollector metrics, JobRequests requests) {
        return new Comparisons(jobs, metrics, requests);
    }
}
