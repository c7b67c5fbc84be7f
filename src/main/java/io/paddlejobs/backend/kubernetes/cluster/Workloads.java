package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.backend.kubernetes.queue.QueueWaits;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.job.JobKey;
import java.time.Instant;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The changes this service makes to a job's objects. Each is one merge patch or delete that
 * states the end result, so repeating it (from a retry, or from another replica of this
 * service) changes nothing. Stopping is suspending: the Job controller then removes the pods
 * (SIGTERM, then the grace period), and the Job stays as the job's record.
 *
 * <p>Under Kueue ({@code queued}) the service never writes {@code suspend}: Kueue resumes every
 * Job it has admitted, so a suspend would be undone. The trainer Job's Workload is deactivated
 * ({@code spec.active: false}, Kueue's own way to stop one, as for a JobSet): one still waiting in
 * the queue leaves it at once and is never admitted, so it never runs; an admitted one is evicted,
 * its quota freed. The trainer Job is also given no more time ({@code activeDeadlineSeconds}
 * {@value #NO_MORE_TIME}): one that runs ends ({@code DeadlineExceeded}) whichever comes first.
 * The pserver Job is deleted instead, its pods and Workload with it.
 */
public final class Workloads {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SUSPEND = "{\"spec\":{\"suspend\":true}}";
    private static final int NOT_FOUND = 404;
    public static final long NO_MORE_TIME = 1;
    private static final String NO_MORE_TIME_PATCH = "{\"spec\":{\"activeDeadlineSeconds\":" + NO_MORE_TIME + "}}";

    private final KubernetesClient client;
    private final JobSets jobSets;

    public Workloads(KubernetesClient client) {
        this.client = client;
        this.jobSets = new JobSets(client);
    }

    /** The client the changes are made through. */
    public KubernetesClient client() {
        return client;
    }

    /** The same changes, for a job that runs as a JobSet. */
    public JobSets jobSets() {
        return jobSets;
    }

    /** Resumes the trainer Job that was created suspended: the Job controller creates the trainer pods. */
    public void releaseTrainers(JobKey key) {
        trainerJob(key).patch(MERGE, "{\"spec\":{\"suspend\":false}}");
    }

    /** Suspends the trainer Job (again): nothing runs it while the job stays ended. */
    public void stopTrainers(JobKey key, boolean queued) {
        Job stopped = trainerJob(key).patch(MERGE, queued ? NO_MORE_TIME_PATCH : SUSPEND);
        if (queued) {
            deactivateWorkloadsOf(client, stopped);
        }
    }

    /**
     * Stops the pservers, keeping their Job (under Kueue: deleting it); a job without pservers (or
     * whose pserver Job is gone) has none to stop.
     */
    public void stopPservers(JobKey key, boolean queued) {
        var pserverJob = client.batch().v1().jobs().inNamespace(key.namespace()).withName(ObjectNames.pserverJob(key.name()));
        try {
            if (queued) {
                deleteIfOurs(pserverJob, key);
            } else {
                pserverJob.patch(MERGE, SUSPEND);
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != NOT_FOUND) {
                throw e;
            }
        }
    }

    /**
     * Marks the job cancelled and suspends its trainer Job, which makes the job controller remove
     * the trainer pods.
     *
     * @param reason why, for a cancel with a reason of its own; {@code null} for a cancel on request
     * @return the trainer Job after the change
     */
    public Job cancelTrainers(JobKey key, Instant at, String reason, String message, boolean queued) {
        return endTrainers(key, JobLabels.cancellation(at, reason, message), queued);
    }

    /** Records why the service failed the job, and suspends its trainer Job. */
    public Job failTrainers(JobKey key, Instant at, String reason, String message, boolean queued) {
        return endTrainers(key, JobLabels.failure(at, reason, message), queued);
    }

    private Job endTrainers(JobKey key, Map<String, String> annotations, boolean queued) {
        String patch = JSON.writeValueAsString(Map.of("metadata", Map.of("annotations", annotations),
                "spec", queued ? Map.of("activeDeadlineSeconds", NO_MORE_TIME) : Map.of("suspend", true)));
        Job ended = trainerJob(key).patch(MERGE, patch);
        if (queued) {
            deactivateWorkloadsOf(client, ended);
        }
        return ended;
    }

    /**
     * Deactivates the Workloads Kueue made for this object (a Job, a JobSet), those not inactive already.
     * Where Kueue has made none yet (a moment after the object was created) the object waits suspended by
     * Kueue; should Kueue admit it later, the lifecycle sees an ended job's trainers resumed and stops them
     * again, which deactivates it then.
     */
    static void deactivateWorkloadsOf(KubernetesClient client, HasMetadata owner) {
        if (owner == null) {
            return;
        }
        var workloads = client.genericKubernetesResources(QueueWaits.API_VERSION, "Workload")
                .inNamespace(owner.getMetadata().getNamespace());
        for (GenericKubernetesResource workload : workloads.withLabel(KueueLabels.JOB_UID, owner.getMetadata().getUid())
                .list().getItems()) {
            Object spec = workload.getAdditionalProperties().get("spec");
            if (!(spec instanceof Map<?, ?> fields && Boolean.FALSE.equals(fields.get("active")))) {
                workloads.withName(workload.getMetadata().getName()).patch(MERGE, "{\"spec\":{\"active\":false}}");
            }
        }
    }

    private Resource<Job> trainerJob(JobKey key) {
        return client.batch().v1().jobs().inNamespace(key.namespace()).withName(ObjectNames.trainerJob(key.name()));
    }

    /**
     * Removes the job's objects. The trainer Job owns the others, but they are deleted by name
     * too (a job whose submit was interrupted may lack the owner references); only objects that
     * carry this job's labels are touched, never a same-named object of someone else.
     *
     * @return whether any of them existed
     */
    public boolean delete(JobKey key) {
        String ns = key.namespace();
        boolean existed = deleteIfOurs(trainerJob(key), key);
        return deleteOwned(key) | existed;
    }

    /** Removes the job's pserver Job and Service, as {@link #delete} does; its trainer Job stays. */
    public boolean deleteOwned(JobKey key) {
        String ns = key.namespace();
        boolean existed = deleteIfOurs(client.batch().v1().jobs().inNamespace(ns)
                .withName(ObjectNames.pserverJob(key.name())), key);
        existed |= deleteIfOurs(client.services().inNamespace(ns).withName(ObjectNames.service(key.name())), key);
        return existed;
    }

    /**
     * Removes the job's Volcano PodGroup now rather than when the garbage collector gets to it: a restart's next
     * attempt can make its own under the same name, and an ended job's gang leaves Volcano's queue at once.
     */
    public void deletePodGroup(JobKey key) {
        deleteIfOurs(client.genericKubernetesResources(VolcanoGroups.API_VERSION, VolcanoGroups.KIND)
                .inNamespace(key.namespace()).withName(ObjectNames.podGroup(key.name())), key);
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
