package io.paddlejobs.backend.kubernetes.queue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Why a job waits in its Kueue queue, in Kueue's own words: the {@code QuotaReserved} condition of
 * the Workload Kueue made for each of its Jobs ("couldn't assign flavors to pod set main:
 * insufficient unused quota for nvidia.com/gpu in flavor default, 2 more needed"), with the
 * ClusterQueue its LocalQueue feeds, and, where Kueue's visibility API is served, its place in line
 * ({@link QueuePositions}). Read (never watched: Workloads carry none of our labels) only for a job
 * whose Jobs Kueue still holds, as often as {@link ClusterEvents} reads events.
 */
public final class QueueWaits {

    public static final String API_VERSION = "kueue.x-k8s.io/v1beta2";

    private final KubernetesClient client;
    private final QueuePositions positions;

    QueueWaits(KubernetesClient client, QueuePositions positions) {
        this.client = client;
        this.positions = positions;
    }

    /**
     * @return {@code null} when none of the job's Workloads is waiting, or Kueue made none yet. A job of two
     *     Workloads (pservers and trainers) starts when both are admitted: its place is the later one's.
     */
    ObservedJob.Explanation of(ObservedJob job) {
        List<String> uids = new ArrayList<>(List.of(job.trainerJob().getMetadata().getUid()));
        if (job.pserverJob() != null) {
            uids.add(job.pserverJob().getMetadata().getUid());
        }
        String firstWaiting = null;
        String why = null;
        QueuePositions.Position last = null;
        for (String uid : uids) {
            for (GenericKubernetesResource workload : client.genericKubernetesResources(API_VERSION, "Workload")
                    .inNamespace(job.namespace()).withLabel(KueueLabels.JOB_UID, uid).list().getItems()) {
                String waiting = waiting(workload);
                if (waiting == null) {
                    continue;
                }
                if (firstWaiting == null) {
                    firstWaiting = workload.getMetadata().getName();
                    why = waiting;
                }
                QueuePositions.Position position = positions.of(job.namespace(), job.queue(), workload.getMetadata().getName());
                if (position != null && (last == null || position.inClusterQueue() > last.inClusterQueue())) {
                    last = position;
                }
            }
        }
        if (firstWaiting == null) {
            return null;
        }
        return new ObservedJob.Explanation(PodStates.QUEUED, "Workload " + firstWaiting, "waiting in queue " + job.queue()
                + clusterQueue(job) + place(last) + ": " + why, last == null ? null : last.inClusterQueue());
    }

    /** ", number 2 in line (3 in its ClusterQueue)", or nothing when the place is not known. */
    static String place(QueuePositions.Position position) {
        return position == null ? "" : ", number " + position.inLocalQueue() + " in line (" + position.inClusterQueue()
                + " in its ClusterQueue)";
    }

    /** The message of a Workload that holds no quota yet, or {@code null} when it has been admitted. */
    @SuppressWarnings("unchecked")
    public static String waiting(GenericKubernetesResource workload) {
        Object status = workload.getAdditionalProperties().get("status");
        Object conditions = status instanceof Map<?, ?> map ? map.get("conditions") : null;
        if (!(conditions instanceof List<?> list)) {
            return "not looked at by Kueue yet";
        }
        String quota = null;
        for (Object item : list) {
            Map<String, Object> condition = (Map<String, Object>) item;
            if ("Admitted".equals(condition.get("type")) && "True".equals(condition.get("status"))) {
                return null;
            }
            if ("QuotaReserved".equals(condition.get("type"))) {
                quota = "True".equals(condition.get("status")) ? "quota reserved, waiting for its admission checks"
                        : String.valueOf(condition.get("message"));
            }
        }
        return quota != null ? quota : "not looked at by Kueue yet";
    }

    /** " (ClusterQueue x)", or nothing when the LocalQueue cannot be read. */
    private String clusterQueue(ObservedJob job) {
        try {
            GenericKubernetesResource local = client.genericKubernetesResources(API_VERSION, "LocalQueue")
                    .inNamespace(job.namespace()).withName(job.queue()).get();
            Object spec = local == null ? null : local.getAdditionalProperties().get("spec");
            Object name = spec instanceof Map<?, ?> map ? map.get("clusterQueue") : null;
            return name == null ? "" : " (ClusterQueue " + name + ")";
        } catch (RuntimeException unreadable) {
            return "";
        }
    }
}
