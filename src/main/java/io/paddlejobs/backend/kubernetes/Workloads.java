package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.job.JobKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The changes this service makes to a running job's objects. Each is one merge patch or delete
 * that states the end result, so repeating it (from a retry, or from another replica of this
 * service) changes nothing. Also what the controllers said when they could not create its pods.
 */
final class Workloads {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    static final Duration ASK_AGAIN_AFTER = Duration.ofSeconds(10);

    private record Asked(long atNanos, Optional<String> refusal) {
    }

    private final KubernetesClient client;
    private final Map<JobKey, Asked> asked = new ConcurrentHashMap<>();

    Workloads(KubernetesClient client) {
        this.client = client;
    }

    /** Stops the pservers, keeping their StatefulSet (and so the job's record). */
    void scalePserversToZero(JobKey key) {
        client.apps().statefulSets().inNamespace(key.namespace()).withName(ObjectNames.statefulSet(key.name()))
                .patch(MERGE, "{\"spec\":{\"replicas\":0}}");
    }

    /**
     * Marks the job cancelled and ends its trainer Job through a deadline already past: the job
     * controller removes the trainer pods and marks the Job failed, so that it is finished and the
     * TTL controller removes it (and the garbage collector what it owns) after
     * {@code ttlSecondsAfterFinished}, as for any finished job. Suspending would stop the pods too,
     * but a suspended Job never finishes: it and its objects would stay forever.
     *
     * @return the trainer Job after the change
     */
    Job cancelTrainers(JobKey key, Instant at) {
        String patch = "{\"metadata\":{\"annotations\":{\"" + JobLabels.CANCELLED_AT_ANNOTATION + "\":\"" + at
                + "\"}},\"spec\":{\"activeDeadlineSeconds\":1}}";
        return client.batch().v1().jobs().inNamespace(key.namespace()).withName(ObjectNames.trainerJob(key.name()))
                .patch(MERGE, patch);
    }

    /**
     * Why the Job or StatefulSet controller cannot create the job's pods (a ResourceQuota, a
     * LimitRange, an admission webhook refusing them): only their {@code FailedCreate} Events
     * say so, as no pod exists to carry a status. The newest such message, if any; empty when the
     * Events cannot be read either. Asked at most once per {@link #ASK_AGAIN_AFTER} per job, so
     * that status reads stay answered from the caches.
     */
    Optional<String> podCreationRefusal(JobKey key) {
        long now = System.nanoTime();
        Asked last = asked.get(key);
        if (last != null && now - last.atNanos() < ASK_AGAIN_AFTER.toNanos()) {
            return last.refusal();
        }
        Set<String> workloads = Set.of(ObjectNames.trainerJob(key.name()), ObjectNames.statefulSet(key.name()));
        Optional<String> refusal;
        try {
            refusal = client.v1().events().inNamespace(key.namespace()).withField("reason", "FailedCreate").list()
                    .getItems().stream()
                    .filter(e -> e.getInvolvedObject() != null && workloads.contains(e.getInvolvedObject().getName()))
                    .max(Comparator.comparing(Workloads::lastSeen))
                    .map(e -> e.getInvolvedObject().getName() + ": " + e.getMessage());
        } catch (KubernetesClientException e) {
            refusal = last == null ? Optional.empty() : last.refusal();
        }
        asked.put(key, new Asked(now, refusal));
        return refusal;
    }

    private static String lastSeen(Event event) {
        if (event.getLastTimestamp() != null) {
            return event.getLastTimestamp();
        }
        return event.getEventTime() != null && event.getEventTime().getTime() != null ? event.getEventTime().getTime()
                : Objects.requireNonNullElse(event.getMetadata().getCreationTimestamp(), "");
    }

    /**
     * Removes the job's objects. The trainer Job owns the others, but they are deleted by name
     * too (a job whose submit was interrupted may lack the owner references); only objects that
     * carry this job's labels are touched, never a same-named object of someone else.
     *
     * @return whether any of them existed
     */
    boolean delete(JobKey key) {
        asked.remove(key);
        String ns = key.namespace();
        boolean existed = deleteIfOurs(client.batch().v1().jobs().inNamespace(ns)
                .withName(ObjectNames.trainerJob(key.name())), key);
        existed |= deleteIfOurs(client.apps().statefulSets().inNamespace(ns)
                .withName(ObjectNames.statefulSet(key.name())), key);
        existed |= deleteIfOurs(client.services().inNamespace(ns).withName(ObjectNames.service(key.name())), key);
        return existed;
    }

    private static <T extends HasMetadata> boolean deleteIfOurs(Resource<T> resource, JobKey key) {
        T existing = resource.get();
        if (existing == null || !key.equals(ClusterCache.jobKey(existing))
                || !JobLabels.MANAGER.equals(existing.getMetadata().getLabels().get(JobLabels.MANAGED_BY))) {
            return false;
        }
        return !resource.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().isEmpty();
    }
}
