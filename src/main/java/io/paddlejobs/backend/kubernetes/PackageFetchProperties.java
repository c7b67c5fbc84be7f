package io.paddlejobs.backend.kubernetes;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * How a job's pods fetch its code package from this service ({@code paddlejobs.kubernetes.packages.*}).
 *
 * @param serviceUrl   this service as the job's pods reach it, e.g. {@code http://paddle-jobs.paddle-jobs.svc:8080};
 *                     unset, jobs with a {@code package} are refused (the service cannot tell where it is)
 * @param fetchImage   the image of the init container that fetches and unpacks the package (needs
 *                     {@code sh}, {@code wget}, {@code tar} with gzip, {@code sha256sum}, {@code head} and {@code timeout})
 * @param fetchTimeout how long that fetch may take before the pod fails, naming the package
 */
@Validated
@ConfigurationProperties("paddlejobs.kubernetes.packages")
public record PackageFetchProperties(
        URI serviceUrl,
        @DefaultValue("busybox:1.36") @NotBlank String fetchImage,
        @DefaultValue("5m") @NotNull Duration fetchTimeout) {

    public PackageFetchProperties {
        if (serviceUrl != null && (serviceUrl.getScheme() == null || serviceUrl.getHost() == null
                || !serviceUrl.getScheme().matches("https?"))) {
            throw new IllegalArgumentException("paddlejobs.kubernetes.packages.service-url: '" + serviceUrl
                    + "' is not an http(s) URL with a host");
        }
    }

    /** Nothing configured (bound from an empty source, so the defaults are stated once): jobs with a package are refused. */
    public static PackageFetchProperties unset() {
        return new Binder(new MapConfigurationPropertySource()).bindOrCreate("paddlejobs.kubernetes.packages",
                PackageFetchProperties.class);
    }
}
