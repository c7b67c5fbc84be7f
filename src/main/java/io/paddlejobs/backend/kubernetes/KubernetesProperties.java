package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.planning.Memory;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.validation.annotation.Validated;

/**
 * What the Kubernetes backend puts into every job ({@code paddlejobs.kubernetes.*}). How it reaches
 * the cluster ({@code master-url}, {@code connect-timeout}, {@code request-timeout}) is
 * {@link KubernetesConnection}'s, shared with mode {@code kubernetes}'s reviews; where the cluster
 * is comes the standard way: the pod's service account, else {@code KUBECONFIG} or {@code ~/.kube/config}.
 * A replica's {@code terminationGracePeriod} is {@code paddlejobs.stop-grace-period} ({@link BackendProperties}),
 * which the backend's configuration hands over with {@link #withShared}; bound alone, the record has its default.
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
 * @param waitImage               the image of the init container that waits for the pservers
 *                                (needs busybox {@code sh}, {@code nc} and {@code grep})
 * @param runAsUser               the user id replicas run as; "restricted" pods may not run as
 *                                root, and most training images would default to root
 * @param namespaces              the namespaces to serve; empty for every namespace
 * @param queues                  the queue of each namespace's jobs that name no {@code queue} themselves
 *                                (namespace: queue): a Kueue LocalQueue (a job with a queue is left to Kueue
 *                                to admit, and its Jobs are never suspended by the service), or with
 *                                {@code scheduler: volcano} a Volcano queue
 * @param workload                what runs a job: {@code jobs} (a headless Service and two Indexed Jobs; any
 *                                cluster), {@code jobset} (one JobSet; JobSet's controller must be installed),
 *                                or {@code auto} (a JobSet where the cluster serves JobSet's API, else Jobs;
 *                                decided once, when the service starts)
 * @param scheduler               who places the pods: {@code default} (the cluster's scheduler, one pod at a time),
 *                                or {@code volcano} (Volcano's scheduler places each job's pods all at once, as one
 *                                PodGroup; needs Volcano installed, and the {@code jobs} workload)
 * @param placement               what each namespace's requests may ask of the cluster's nodes and volumes
 *                                ({@code node_selector}, {@code node_affinity}, {@code tolerations}, {@code volumes});
 *                                nothing unless listed here
 */
@Validated
@ConfigurationProperties("paddlejobs.kubernetes")
public record KubernetesProperties(
        @NotBlank String dataClaim,
        boolean requireSharedDataClaim,
        @Min(0) int ttlSecondsAfterFinished,
        Duration pserverWaitTimeout,
        Duration pendingTimeout,
        Duration resync,
        @NotBlank String shmSize,
        Duration terminationGracePeriod,
        @NotBlank String waitImage,
        @Min(1) long runAsUser,
        List<String> namespaces,
        Map<String, String> queues,
        Workload workload,
        Scheduler scheduler,
        Placement placement) {

    /** The settings as bound from {@code paddlejobs.kubernetes.*}, with the stop grace period at its default. */
    @ConstructorBinding
    public KubernetesProperties(
            @DefaultValue("paddle-data") String dataClaim,
            @DefaultValue("true") boolean requireSharedDataClaim,
            @DefaultValue("3600") int ttlSecondsAfterFinished,
            @DefaultValue("10m") Duration pserverWaitTimeout,
            @DefaultValue("30m") Duration pendingTimeout,
            @DefaultValue("1m") Duration resync,
            @DefaultValue("1Gi") String shmSize,
            @DefaultValue("busybox:1.36") String waitImage,
            @DefaultValue("1000") long runAsUser,
            @DefaultValue List<String> namespaces,
            @DefaultValue Map<String, String> queues,
            @DefaultValue("jobs") Workload workload,
            @DefaultValue("default") Scheduler scheduler,
            @DefaultValue Placement placement) {
        this(dataClaim, requireSharedDataClaim, ttlSecondsAfterFinished, pserverWaitTimeout, pendingTimeout, resync,
                shmSize, DurationStyle.detectAndParse(BackendProperties.STOP_GRACE_PERIOD), waitImage, runAsUser,
                namespaces, queues, workload, scheduler, placement);
    }

    /** These settings with the ones every backend shares ({@code paddlejobs.stop-grace-period}). */
    public KubernetesProperties withShared(BackendProperties shared) {
        return new KubernetesProperties(dataClaim, requireSharedDataClaim, ttlSecondsAfterFinished, pserverWaitTimeout,
                pendingTimeout, resync, shmSize, shared.stopGracePeriod(), waitImage, runAsUser, namespaces, queues,
                workload, scheduler, placement);
    }

    /**
     * Per namespace (namespace: list), what its jobs may ask for: a request that names anything else is a
     * 400 naming the field and this setting. Taints keep pods off the nodes they were put on for; a node
     * selector or affinity chooses a node pool; a volume is the namespace's data.
     *
     * @param nodeLabels  node labels a job may select (node_selector, node_affinity's In and Exists):
     *                    {@code key=value}, or {@code key} for any value of it
     * @param tolerations taints a job may tolerate: {@code key=value:Effect}, {@code key:Effect}, {@code key=value},
     *                    or {@code key} for any toleration of that key
     * @param volumes     claims and config maps a job may mount read-only: {@code pvc/<name>}, {@code configmap/<name>}
     */
    public record Placement(@DefaultValue Map<String, List<String>> nodeLabels,
                            @DefaultValue Map<String, List<String>> tolerations,
                            @DefaultValue Map<String, List<String>> volumes) {

        public Placement {
            nodeLabels = copy(nodeLabels);
            tolerations = copy(tolerations);
            volumes = copy(volumes);
        }

        private static Map<String, List<String>> copy(Map<String, List<String>> allowed) {
            Map<String, List<String>> copied = new java.util.HashMap<>();
            if (allowed != null) {
                allowed.forEach((namespace, values) -> copied.put(namespace, List.copyOf(values)));
            }
            return Map.copyOf(copied);
        }
    }

    /** What runs a job's replicas ({@code paddlejobs.kubernetes.workload}). */
    public enum Workload { JOBS, JOBSET, AUTO }

    /** Who places a job's pods ({@code paddlejobs.kubernetes.scheduler}). */
    public enum Scheduler { DEFAULT, VOLCANO }

    public KubernetesProperties {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
        queues = queues == null ? Map.of() : Map.copyOf(queues);
        workload = workload == null ? Workload.JOBS : workload;
        scheduler = scheduler == null ? Scheduler.DEFAULT : scheduler;
        placement = placement == null ? new Placement(null, null, null) : placement;
        if (scheduler == Scheduler.VOLCANO && workload == Workload.JOBSET) {
            // A JobSet creates the trainers only once the pservers are ready, and a gang of pservers alone is never placed.
            throw new IllegalArgumentException("paddlejobs.kubernetes.scheduler volcano needs paddlejobs.kubernetes.workload "
                    + "jobs (or auto, which then runs Jobs): JobSet would hold the trainers back until the pservers run, "
                    + "and Volcano places none of a job's pods until all of them exist");
        }
        if (shmSize != null) {
            // At start-up, not at the first submit: a bad quantity names the property that holds it.
            try {
                Memory.parse(shmSize);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("paddlejobs.kubernetes.shm-size: " + e.getMessage(), e);
            }
        }
    }
}
