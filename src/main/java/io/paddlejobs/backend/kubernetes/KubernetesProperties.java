package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.kubernetes.KubernetesConnection;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * How the Kubernetes backend reaches the cluster and what it puts into every job
 * ({@code paddlejobs.kubernetes.*}). Where the cluster is comes the standard way: the pod's
 * service account, else {@code KUBECONFIG} or {@code ~/.kube/config}.
 *
 * @param dataClaim               the user's storage: a PersistentVolumeClaim of this name in the
 *                                job's namespace, mounted at {@code /data} in every replica
 * @param requireSharedDataClaim  whether a submit is refused when the claim cannot be mounted on
 *                                several nodes at once (not ReadWriteMany or ReadOnlyMany); turn
 *                                it off only on single-node clusters
 * @param ttlSecondsAfterFinished how long a finished (or cancelled) job stays before it is removed
 * @param pserverWaitTimeout      how long a released trainer waits for every pserver endpoint before failing
 * @param pendingTimeout          how long a job may stay pending (pods unschedulable, images not
 *                                pulled, volumes not mounted) before it fails with the last reason; 0: forever
 * @param resync                  how often every job is looked at again, changed or not: retries what
 *                                failed, applies the pending timeout and the clean-up of cancelled jobs
 * @param shmSize                 the memory-backed {@code /dev/shm} of a trainer (Paddle's DataLoader
 *                                workers share batches through it); its pages count against the
 *                                trainer's memory limit, so it is at most that
 * @param terminationGracePeriod  how long a replica has between SIGTERM and SIGKILL when it is stopped
 * @param waitImage               the image of the init container that waits for the pservers
 *                                (needs busybox {@code sh}, {@code nc} and {@code grep})
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
        @DefaultValue("true") boolean requireSharedDataClaim,
        @DefaultValue("3600") @Min(0) int ttlSecondsAfterFinished,
        @DefaultValue("10m") Duration pserverWaitTimeout,
        @DefaultValue("30m") Duration pendingTimeout,
        @DefaultValue("1m") Duration resync,
        @DefaultValue("1Gi") @NotBlank String shmSize,
        @DefaultValue("30s") Duration terminationGracePeriod,
        @DefaultValue("busybox:1.36") @NotBlank String waitImage,
        @DefaultValue("1000") @Min(1) long runAsUser,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("3s") Duration requestTimeout,
        @DefaultValue("5s") Duration retryAfter,
        @DefaultValue List<String> namespaces,
        String masterUrl) {

    public KubernetesProperties {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
        if (shmSize != null) {
            // At start-up, not at the first submit: a bad quantity names the property that holds it.
            try {
                io.paddlejobs.planning.Memory.parse(shmSize);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("paddlejobs.kubernetes.shm-size: " + e.getMessage(), e);
            }
        }
    }

    /** How to reach the API server: the same keys as {@link KubernetesConnection} binds for the reviews. */
    public KubernetesConnection connection() {
        return new KubernetesConnection(masterUrl, connectTimeout, requestTimeout);
    }

    /**
     * The defaults, as an operator who configured nothing gets them: bound from an empty
     * environment, so they are the {@code @DefaultValue}s above and written nowhere else.
     */
    static KubernetesProperties defaults() {
        return new Binder(new MapConfigurationPropertySource()).bindOrCreate("paddlejobs.kubernetes",
                KubernetesProperties.class);
    }

    /** The same settings for another API server (tests, tunnels). */
    public KubernetesProperties withApiServer(String newMasterUrl, Duration newRequestTimeout, List<String> newNamespaces) {
        return new KubernetesProperties(dataClaim, requireSharedDataClaim, ttlSecondsAfterFinished, pserverWaitTimeout,
                pendingTimeout, resync, shmSize, terminationGracePeriod, waitImage, runAsUser, connectTimeout,
                newRequestTimeout, retryAfter, newNamespaces, newMasterUrl);
    }

    /** The same settings for a single-node cluster, where a ReadWriteOnce claim serves every pod. */
    KubernetesProperties onSingleNode() {
        return new KubernetesProperties(dataClaim, false, ttlSecondsAfterFinished, pserverWaitTimeout,
                pendingTimeout, resync, shmSize, terminationGracePeriod, waitImage, runAsUser, connectTimeout,
                requestTimeout, retryAfter, namespaces, masterUrl);
    }

    /** The same settings with another pending timeout and resync period (tests). */
    KubernetesProperties withTimers(Duration newPendingTimeout, Duration newResync, int newTtlSeconds) {
        return new KubernetesProperties(dataClaim, requireSharedDataClaim, newTtlSeconds, pserverWaitTimeout,
                newPendingTimeout, newResync, shmSize, terminationGracePeriod, waitImage, runAsUser, connectTimeout,
                requestTimeout, retryAfter, namespaces, masterUrl);
    }
}
