package io.paddlejobs.kubernetes;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the service reaches the Kubernetes API server ({@code paddlejobs.kubernetes.master-url},
 * {@code .connect-timeout}, {@code .request-timeout}), for the backend and for mode
 * {@code kubernetes}'s reviews alike. Where the cluster is comes the standard way unless
 * {@code masterUrl} says otherwise.
 *
 * @param masterUrl      the API server, overriding the standard discovery (tests, tunnels)
 * @param connectTimeout connecting to the API server
 * @param requestTimeout one API request; a caller waits about this long at most when the API server is down
 */
@ConfigurationProperties("paddlejobs.kubernetes")
public record KubernetesConnection(String masterUrl,
                                   @DefaultValue("2s") Duration connectTimeout,
                                   @DefaultValue("3s") Duration requestTimeout) {
}
