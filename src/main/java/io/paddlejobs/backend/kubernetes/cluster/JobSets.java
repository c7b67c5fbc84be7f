package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.lifecycle.JobLifecycle;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.JobSetManifest;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The changes this service makes to a job that runs as a JobSet ({@link JobSetManifest}). Creating it is one
 * object, so all or nothing by itself. Stopping is suspending the JobSet: its controller suspends every child
 * Job, and the Job controller removes their pods; the JobSet stays as the job's record, carrying why it ended
 * (the same annotations {@link Workloads} writes on a trainer Job). Restarts are JobSet's own.
 *
 * <p>Under Kueue ({@code queued}) the service does not suspend the JobSet: Kueue resumes a JobSet it has
 * admitted. It deactivates the JobSet's Workload instead ({@code spec.active: false}), Kueue's own way to stop
 * one: Kueue evicts it, suspends the JobSet, frees its quota and does not admit it again.
 */
public final class JobSets {

    public static final String API_VERSION = "jobset.x-k8s.io/v1alpha2";
    public static final String KIND = "JobSet";
    /** On every child Job and pod of a JobSet: the JobSet's name. */
    public static final String NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
    /** On every child Job and pod of a JobSet: the JobSet's restart its object belongs to (0 first). */
    public static final String RESTARTS_LABEL = "jobset.sigs.k8s.io/restart-attempt";

    private static final Logger log = LoggerFactory.getLogger(JobSets.class);
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final KubernetesClient client;

    JobSets(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Whether jobs run as JobSets: {@code auto} asks the API server once whether it serves JobSet's API (one
     * that cannot be asked, or does not, runs Jobs).
     */
    public static boolean chosen(KubernetesClient client, KubernetesProperties.Workload workload) {
        return switch (workload) {
            case JOBS -> false;
            case JOBSET -> true;
            case AUTO -> served(client);
        };
    }

    private static boolean served(KubernetesClient client) {
        try {
            var resources = client.getApiResources(API_VERSION);
            boolean served = resources != null && resources.getResources().stream().anyMatch(r -> KIND.equals(r.getKind()));
            log.info("workload auto: {} serves {} {}: jobs run as {}", client.getMasterUrl(), served ? "" : "no",
                    API_VERSION, served ? "JobSets" : "Jobs");
            return served;
        } catch (KubernetesClientException e) {
            log.warn("workload auto: could not ask the API server for {} ({}); jobs run as Jobs", API_VERSION, e.toString());
            return false;
        }
    }

    /**
     * @return the JobSet as the API server created it
     * @throws JobAlreadyExistsException when a JobSet of that name exists
     */
    public GenericKubernetesResource create(JobPlan plan, DataClaim claim, ShippedCode code, KubernetesProperties settings) {
        try {
            return client.resource(JobSetManifest.desired(plan, settings, claim, code)).create();
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                throw new JobAlreadyExistsException(new JobKey(plan.namespace(), plan.name()));
            }
            throw ApiErrors.translate(e, "create the JobSet of '" + plan.name() + "'");
        }
    }

    /** Marks the job cancelled (with a reason of its own, or {@code null} for a cancel on request) and stops its JobSet. */
    public GenericKubernetesResource cancel(JobKey key, Instant at, String reason, String message, boolean queued) {
        return end(key, JobLabels.cancellation(at, reason, message), queued);
    }

    /** Records why the service failed the job, and stops its JobSet. */
    void fail(JobKey key, Instant at, String reason, String message, boolean queued) {
        end(key, JobLabels.failure(at, reason, message), queued);
    }

    /** Stops the JobSet (again): a job the service ended stays ended. */
    void stop(JobKey key, boolean queued) {
        if (queued) {
            deactivate(jobSet(key).get());
        } else {
            jobSet(key).patch(MERGE, "{\"spec\":{\"suspend\":true}}");
        }
    }

    private GenericKubernetesResource end(JobKey key, Map<String, String> annotations, boolean queued) {
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put("metadata", Map.of("annotations", annotations));
        if (!queued) {
            patch.put("spec", Map.of("suspend", true));
        }
        GenericKubernetesResource ended = jobSet(key).patch(MERGE, JSON.writeValueAsString(patch));
        if (queued) {
            deactivate(ended);
        }
        return ended;
    }

    private void deactivate(GenericKubernetesResource jobSet) {
        Workloads.deactivateWorkloadsOf(client, jobSet);
    }

    /**
     * Removes the JobSet, and with it (its controller's owner references) its child Jobs, pods and Service; only
     * one that carries this job's labels.
     *
     * @return whether it existed
     */
    public boolean delete(JobKey key) {
        var resource = jobSet(key);
        GenericKubernetesResource existing = resource.get();
        if (existing == null || !key.equals(ClusterCache.jobKey(existing))
                || !JobLabels.MANAGER.equals(existing.getMetadata().getLabels().get(JobLabels.MANAGED_BY))) {
            return false;
        }
        return !resource.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().isEmpty();
    }

    /** What the lifecycle decided, done to a JobSet: restarts are never decided for one (JobSet restarts it). */
    public void apply(JobKey key, JobLifecycle.Action action, Instant now, boolean queued) {
        if (action instanceof JobLifecycle.Fail fail) {
            fail(key, now, fail.reason(), fail.message(), queued);
            log.info("Job {} failed: {}: {}", key, fail.reason(), fail.message());
        } else if (action instanceof JobLifecycle.StopTrainers || action instanceof JobLifecycle.StopPservers) {
            stop(key, queued);
        } else if (action instanceof JobLifecycle.Remove) {
            delete(key);
        } else {
            log.debug("Job {}: {} is JobSet's to do", key, action);
        }
    }

    private Resource<GenericKubernetesResource> jobSet(JobKey key) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(key.namespace()).withName(key.name());
    }
}
