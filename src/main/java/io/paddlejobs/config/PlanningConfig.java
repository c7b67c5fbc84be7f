package io.paddlejobs.config;

import io.paddlejobs.job.PlanSize;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.RestartBackoff;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The planner, with the operator's defaults and limits. */
@Configuration(proxyBeanMethods = false)
class PlanningConfig {

    @Bean
    JobPlanner jobPlanner(PlanningProperties properties) {
        return new JobPlanner(properties.toPolicy());
    }

    @Bean
    PlanSize planSize(PlanningProperties properties) {
        return new PlanSize(properties.limits().maxPlanSize().toBytes());
    }

    @Bean
    RestartBackoff restartBackoff(PlanningProperties properties) {
        return properties.restarts().toBackoff();
    }
}
