package io.paddlejobs.api;

import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobService;
import io.paddlejobs.security.SecurityProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The job feed that the event streams watch, with the streams' share of its senders. */
@Configuration(proxyBeanMethods = false)
class JobFeedConfig {

    @Bean
    JobFeed jobFeed(JobService jobs, SecurityProperties security) {
        return new JobFeed(jobs, security.streams().sendersPerUser(), security.streams().sendTimeout());
    }
}
