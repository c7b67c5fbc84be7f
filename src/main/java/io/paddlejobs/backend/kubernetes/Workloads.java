package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.job.JobKey;
import java.time.Instant;

/**
 * The changes this service makes to a running job's objects. Each is one merge patch or delete
 * that states the end result, so repeating it (from a retry, or from another replica of this
 * service) changes nothing.
 */
final class Workloads {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private final KubernetesClient client;

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
     * Removes the job's objects. The trainer Job owns the others, but they are deleted by name
     * too (a job whose submit was interrupted may lack the owner references); only objects that
     * carry this job's labels are touched, never a same-named object of someone else.
     *
     * @return whether any of them existed
     */
    boolean delete(JobKey key) {
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
