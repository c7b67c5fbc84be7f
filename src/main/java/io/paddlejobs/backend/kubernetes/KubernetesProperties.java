package io.paddlejobs.backend.kubernetes;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the Kubernetes backend reaches the cluster and what it puts into every job
 * ({@code paddlejobs.kubernetes.*}). Where the cluster is comes the standard way: the pod's
 * service account, else {@code KUBECONFIG} or {@code ~/.kube/config}.
 *
 * @param dataClaim               the user's storage: a PersistentVolumeClaim of this name in the
 *                                job's namespace, mounted at {@code /data} in every replica
 * @param ttlSecondsAfterFinished how long a finished job stays before Kubernetes removes it
 * @param pserverWaitTimeout      how long a released trainer waits for every pserver endpoint before failing
 * @param waitImage               the image of the init container that waits for the pservers
 *                                (needs {@code sh} and {@code nc})
 * @param runAsUser               the user id replicas run as; "restricted" pods may not run as
 *                                root, and most training images would default to root
 * @param connectTimeout          connecting to the API server
 * @param requestTimeout          one API request; a submit fails within about this long when the
 *                                API server is down (no client-side retries)
 * @param retryAfter              what a 503 tells the caller to wait before retrying
 * @param namespaces              the namespaces to serve; empty for every namespace
 * @param masterUrl               the API server, overriding the standard discovery (tests, tunnels)
 */
@Validated
@ConfigurationProperties("paddlejobs.kubernetes")
public record KubernetesProperties(
        @DefaultValue("paddle-data") @NotBlank String dataClaim,
        @DefaultValue("3600") @Min(0) int ttlSecondsAfterFinished,
        @DefaultValue("10m") Duration pserverWaitTimeout,
        @DefaultValue("busybox:1.36") @NotBlank String waitImage,
        @DefaultValue("1000") @Min(1) long runAsUser,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("3s") Duration requestTimeout,
        @DefaultValue("5s") Duration retryAfter,
        @DefaultValue List<String> namespaces,
        String masterUrl) {

    public KubernetesProperties {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    }

    /** The defaults, as an operator who configured nothing gets them. */
    static KubernetesProperties defaults() {
        return new KubernetesProperties("paddle-data", 3600, Duration.ofMinutes(10), "busybox:1.36", 1000,
                Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(5), List.of(), null);
    }
}
