package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Absolute status URLs as the caller reached the service (proxy headers are honoured when
 * {@code server.forward-headers-strategy} says so). They always carry the namespace.
 */
@Component
class StatusUrls {

    String of(JobKey key) {
        return ServletUriComponentsBuilder.fromCurrentContextPath()
                .path("/jobs/{name}/status")
                .queryParam("namespace", key.namespace())
                .buildAndExpand(key.name())
                .toUriString();
    }
}
