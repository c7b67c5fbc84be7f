package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.cluster.JobSets;
import io.paddlejobs.backend.kubernetes.cluster.SpecCodec;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job as one JobSet ({@code jobset.x-k8s.io/v1alpha2}) named {@code <job>}: the replicated jobs {@code pserver} and
 * {@code trainer}, one child Job each, made from the same Job specs as the {@code jobs} workload's two Indexed Jobs
 * ({@link PserverJobManifest}, {@link TrainerJobManifest}), so the pods, their env contract and labels are the same.
 * What the service does itself for two Jobs, JobSet's controller does here:
 * <ul>
 *   <li>the trainers' Job is created only once the pservers' is {@code Ready} ({@code dependsOn}), so it is never
 *       created suspended, and a queueing system sees every replica as one workload;</li>
 *   <li>the job succeeds when the trainers have ({@code successPolicy}), and JobSet then deletes the pservers' Job;</li>
 *   <li>a failed child Job restarts the whole JobSet, all child Jobs made anew, up to the request's
 *       {@code max_restarts} ({@code failurePolicy.maxRestarts}), then fails it;</li>
 *   <li>the headless Service {@code <job>} ({@code network.subdomain}), owned by the JobSet;</li>
 *   <li>removal {@code ttl-seconds-after-finished} after it ended.</li>
 * </ul>
 * The JobSet carries the request (the plan is recovered from it) and the Kueue labels; the child Jobs carry no
 * Kueue labels, as Kueue admits the JobSet as a whole.
 */
public final class JobSetManifest {

    private JobSetManifest() {
    }

    public static GenericKubernetesResource desired(JobPlan plan, KubernetesProperties settings, DataClaim claim,
                                             ShippedCode code) {
        Manifests jobs = Manifests.desired(plan, settings, claim, code);
        List<Map<String, Object>> replicated = new ArrayList<>();
        if (jobs.pserverJob() != null) {
            replicated.add(replicatedJob(Role.PSERVER, jobs.pserverJob(), null));
        }
        replicated.add(replicatedJob(Role.TRAINER, jobs.trainerJob(), jobs.pserverJob() == null ? null
                : List.of(Map.of("name", Role.PSERVER.label(), "status", "Ready"))));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("network", Map.of("enableDNSHostnames", true, "subdomain", ObjectNames.service(plan.name()),
                "publishNotReadyAddresses", true));
        spec.put("successPolicy", Map.of("operator", "All", "targetReplicatedJobs", List.of(Role.TRAINER.label())));
        spec.put("failurePolicy", Map.of("maxRestarts", plan.spec().lifecycle().maxRestartsOrDefault()));
        spec.put("ttlSecondsAfterFinished", settings.ttlSecondsAfterFinished());
        spec.put("replicatedJobs", replicated);
        Map<String, String> labels = new LinkedHashMap<>(JobLabels.of(plan));
        labels.putAll(KueueLabels.of(plan, settings, true));
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(JobSets.API_VERSION)
                .withKind(JobSets.KIND)
                .withNewMetadata()
                    .withName(plan.name())
                    .withNamespace(plan.namespace())
                    .withLabels(labels)
                    .withAnnotations(Map.of(JobLabels.SPEC_ANNOTATION, SpecCodec.write(plan.spec())))
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }

    /**
     * A role's Job as a replicated job's template: JobSet decides suspension (it holds the trainers back itself,
     * and Kueue suspends the JobSet) and removal, so the template states neither.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> replicatedJob(Role role, Job job, List<Map<String, Object>> dependsOn) {
        Map<String, Object> jobSpec = new LinkedHashMap<>((Map<String, Object>) Manifests.asMap(job).get("spec"));
        jobSpec.remove("suspend");
        jobSpec.remove("ttlSecondsAfterFinished");
        Map<String, Object> metadata = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>(job.getMetadata().getLabels());
        labels.keySet().removeIf(key -> key.startsWith(KueueLabels.PREFIX));
        metadata.put("labels", labels);
        Map<String, Object> replicatedJob = new LinkedHashMap<>();
        replicatedJob.put("name", role.label());
        replicatedJob.put("replicas", 1);
        if (dependsOn != null) {
            replicatedJob.put("dependsOn", dependsOn);
        }
        replicatedJob.put("template", Map.of("metadata", metadata, "spec", jobSpec));
        return replicatedJob;
    }
}
