package io.paddlejobs.packages;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Code packages are kept whichever backend runs the jobs. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PackagesProperties.class)
class PackagesConfig {

    @Bean
    PackageStore packageStore(PackagesProperties properties) {
        return new PackageStore(properties);
    }
}
