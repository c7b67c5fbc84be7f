package io.paddlejobs;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class PaddleJobsApplication {

    public static void main(String[] args) {
        SpringApplication.run(PaddleJobsApplication.class, args);
    }
}
