package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.security.SecurityProperties;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Absolute status URLs: under {@code paddlejobs.security.base-url} when it is set, else as the caller
 * reached the service (its {@code Host}, which the request-origin check has let in; proxy headers are
 * honoured when {@code server.forward-headers-strategy} says so). They always carry the namespace.
 */
@Component
public class StatusUrls {

    private final SecurityProperties security;

    StatusUrls(SecurityProperties security) {
        this.security = security;
    }

    String of(JobKey key) {
        return of(base(), key);
    }

    /** Status URLs as this request would get them, made later off its thread (for a stream's events). */
    public Function<JobKey, String> forLater() {
        UriComponentsBuilder base = base();
        return key -> of(base.cloneBuilder(), key);
    }

    private UriComponentsBuilder base() {
        return security.baseUrl() != null
                ? UriComponentsBuilder.fromUri(security.baseUrl())
                : ServletUriComponentsBuilder.fromCurrentContextPath();
    }

    private static String of(UriComponentsBuilder base, JobKey key) {
        return base.path("/jobs/{name}/status")
                .queryParam("namespace", key.namespace())
                .buildAndExpand(key.name())
                .toUriString();
    }
}
