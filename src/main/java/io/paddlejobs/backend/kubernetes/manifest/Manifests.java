package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.backend.kubernetes.status.AttemptState;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Replica;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's objects, in the order they are created: the trainer Job first, because it owns the
 * others, then the Service, the pserver Job and the PodGroup.
 *
 * @param pserverJob {@code null} for a job without pservers
 * @param podGroup   the job's Volcano PodGroup ({@link VolcanoGroups}), {@code null} unless Volcano schedules it
 */
public record Manifests(Job trainerJob, Service service, Job pserverJob, GenericKubernetesResource podGroup) {

    public static Manifests desired(JobPlan plan, KubernetesProperties settings) {
        return desired(plan, settings, DataClaim.assumed(settings.dataClaim()));
    }

    public static Manifests desired(JobPlan plan, KubernetesProperties settings, DataClaim claim) {
        return desired(plan, settings, claim, null);
    }

    /** @param code the job's package as its pods fetch it, {@code null} when it has none */
    public static Manifests desired(JobPlan plan, KubernetesProperties settings, DataClaim claim, ShippedCode code) {
        return new Manifests(TrainerJobManifest.desired(plan, settings, claim, code), HeadlessServiceManifest.desired(plan),
                plan.pservers().count() > 0 ? PserverJobManifest.desired(plan, settings, claim, code) : null,
                VolcanoGroups.chosen(settings) ? VolcanoGroups.desired(plan, settings) : null);
    }

    /**
     * The objects of a later attempt of a job that restarts: the same plan, {@code PADDLE_JOB_RESTART_COUNT}
     * the attempt's number, every pod labelled with it, and the trainer Job created suspended, carrying the
     * restart state, until the backoff has passed and its pservers are ready (under Kueue, until Kueue admits it;
     * under Volcano, until the backoff has passed: the gang is placed all at once).
     */
    public static Manifests forAttempt(JobPlan plan, KubernetesProperties settings, DataClaim claim, ShippedCode code,
                                AttemptState state) {
        String number = Integer.toString(state.number());
        JobPlan attempt = plan.withReplicas(plan.replicas().stream().map(r -> {
            Map<String, String> env = new LinkedHashMap<>(r.env());
            env.put(PaddleEnv.RESTART_COUNT, number);
            return new Replica(r.role(), r.index(), r.host(), env);
        }).toList());
        Manifests desired = desired(attempt, settings, claim, code);
        Job trainers = marked(desired.trainerJob(), number);
        trainers.getMetadata().getAnnotations().putAll(state.annotations());
        if (KueueLabels.queue(plan, settings) == null) {
            trainers.getSpec().setSuspend(true); // under Kueue, Kueue owns it
        }
        return new Manifests(trainers, desired.service(),
                desired.pserverJob() == null ? null : marked(desired.pserverJob(), number), desired.podGroup());
    }

    private static Job marked(Job job, String attempt) {
        Job copy = Serialization.clone(job);
        Map<String, String> annotations = new LinkedHashMap<>(
                copy.getMetadata().getAnnotations() == null ? Map.of() : copy.getMetadata().getAnnotations());
        annotations.put(JobLabels.ATTEMPT, attempt);
        copy.getMetadata().setAnnotations(annotations);
        Map<String, String> labels = new LinkedHashMap<>(copy.getSpec().getTemplate().getMetadata().getLabels());
        labels.put(JobLabels.ATTEMPT, attempt);
        copy.getSpec().getTemplate().getMetadata().setLabels(labels);
        return copy;
    }

    public List<HasMetadata> inCreationOrder() {
        List<HasMetadata> objects = new ArrayList<>(List.of(trainerJob, service));
        if (pserverJob != null) {
            objects.add(pserverJob);
        }
        if (podGroup != null) {
            objects.add(podGroup);
        }
        return objects;
    }

    /** What the trainer Job owns. */
    public List<HasMetadata> owned() {
        return inCreationOrder().subList(1, inCreationOrder().size());
    }

    /** The objects as plain JSON-shaped maps (a dry run shows them; fabric8 types stay in this package). */
    public List<Map<String, Object>> asMaps() {
        return inCreationOrder().stream().map(Manifests::asMap).toList();
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> asMap(HasMetadata object) {
        return Serialization.unmarshal(Serialization.asJson(object), Map.class);
    }

    /**
     * Makes {@code owned} a dependent of the trainer Job: deleting the Job (by hand, or by its
     * TTL) then removes it too. Not a controller reference: nothing reconciles it from the Job.
     */
    public static <T extends HasMetadata> T ownedBy(Job owner, T owned) {
        OwnerReference reference = new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .build();
        T copy = Serialization.clone(owned);
        copy.getMetadata().setOwnerReferences(List.of(reference));
        return copy;
    }
}
