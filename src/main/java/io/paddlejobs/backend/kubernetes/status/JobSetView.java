package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import io.paddlejobs.backend.kubernetes.cluster.JobSets;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JobSet job read as the {@code jobs} workload's objects, so that one status mapping, one lifecycle and one plan
 * recovery serve both. The trainer Job of the view is the JobSet's trainer child Job where it exists, else (the
 * pservers not yet ready, or the child removed by JobSet after a failure) one made from the JobSet's trainer
 * template; either way it carries what the JobSet says of the job as a whole: its uid, creation time, annotations
 * (the request, cancelled or failed by the service), queue label, suspension, an end ({@code Complete} or
 * {@code Failed} from the JobSet's conditions) and the attempt, which is the JobSet's {@code status.restarts}.
 * Objects of an earlier restart (JobSet's restart-attempt label) are left out, as for the {@code jobs} workload.
 */
public final class JobSetView {

    private JobSetView() {
    }

    public static boolean isChild(Job job) {
        var labels = job.getMetadata().getLabels();
        return labels != null && labels.containsKey(JobSets.NAME_LABEL);
    }

    /** @param trainers the trainer child Job, {@code null} when there is none; likewise {@code pservers} */
    public static ObservedJob observe(GenericKubernetesResource jobSet, Job trainers, Job pservers, List<Pod> pods) {
        int restarts = restarts(jobSet);
        String attempt = Integer.toString(restarts);
        Job trainerView = trainers != null && restartOf(trainers) == restarts ? Serialization.clone(trainers)
                : fromTemplate(jobSet);
        var metadata = trainerView.getMetadata();
        metadata.setUid(jobSet.getMetadata().getUid());
        metadata.setCreationTimestamp(jobSet.getMetadata().getCreationTimestamp());
        Map<String, String> annotations = new LinkedHashMap<>(metadata.getAnnotations() == null ? Map.of()
                : metadata.getAnnotations());
        annotations.putAll(jobSet.getMetadata().getAnnotations() == null ? Map.of() : jobSet.getMetadata().getAnnotations());
        annotations.put(JobLabels.ATTEMPT, attempt);
        metadata.setAnnotations(annotations);
        Map<String, String> labels = new LinkedHashMap<>(metadata.getLabels());
        labels.put(JobSets.NAME_LABEL, jobSet.getMetadata().getName());
        String queue = jobSet.getMetadata().getLabels().get(KueueLabels.QUEUE_NAME);
        if (queue != null) {
            labels.put(KueueLabels.QUEUE_NAME, queue);
        }
        metadata.setLabels(labels);
        trainerView.getSpec().setSuspend(Boolean.TRUE.equals(spec(jobSet).get("suspend")));
        Job pserverView = pservers == null || restartOf(pservers) != restarts ? null : marked(pservers, attempt);
        endedAsJobSet(trainerView, jobSet, pserverView);
        List<Pod> current = pods.stream().filter(pod -> restartOf(pod) == restarts)
                .map(pod -> new PodBuilder(pod).editMetadata().addToLabels(JobLabels.ATTEMPT, attempt).endMetadata().build())
                .toList();
        return new ObservedJob(trainerView, pserverView, current);
    }

    /** The trainer child Job as JobSet will make it, with no status yet. */
    @SuppressWarnings("unchecked")
    private static Job fromTemplate(GenericKubernetesResource jobSet) {
        Map<String, Object> template = replicatedJobs(jobSet).stream()
                .filter(r -> Role.TRAINER.label().equals(r.get("name"))).findFirst()
                .map(r -> (Map<String, Object>) r.get("template")).orElseThrow(() -> new IllegalArgumentException(
                        "JobSet " + jobSet.getMetadata().getName() + " has no trainer replicated job"));
        Map<String, Object> templateMetadata = (Map<String, Object>) template.getOrDefault("metadata", Map.of());
        JobSpec spec = Serialization.unmarshal(Serialization.asJson(template.get("spec")), JobSpec.class);
        return new JobBuilder()
                .withNewMetadata()
                    .withName(ObjectNames.jobSetChild(ClusterCache.jobKey(jobSet).name(), Role.TRAINER))
                    .withNamespace(jobSet.getMetadata().getNamespace())
                    .withLabels((Map<String, String>) templateMetadata.getOrDefault("labels", Map.of()))
                .endMetadata()
                .withSpec(spec)
                .build();
    }

    /**
     * The JobSet's end, where its trainer Job does not say it (JobSet removed it, still running, when the JobSet
     * failed). Not where the pservers' Job failed: then the pserver's own failure is the job's, as in the {@code jobs}
     * workload, and JobSet's "reached max number of restarts" would hide it.
     */
    private static void endedAsJobSet(Job trainerView, GenericKubernetesResource jobSet, Job pserverView) {
        if (JobStatusMapper.condition(trainerView, "Complete") != null
                || JobStatusMapper.condition(trainerView, "Failed") != null
                || pserverView != null && JobStatusMapper.condition(pserverView, "Failed") != null) {
            return;
        }
        for (Map<String, Object> condition : conditions(jobSet)) {
            if (!"True".equals(condition.get("status"))) {
                continue;
            }
            String type = "Completed".equals(condition.get("type")) ? "Complete"
                    : "Failed".equals(condition.get("type")) ? "Failed" : null;
            if (type == null) {
                continue;
            }
            JobCondition ended = new JobConditionBuilder().withType(type).withStatus("True")
                    .withReason((String) condition.get("reason")).withMessage((String) condition.get("message"))
                    .withLastTransitionTime((String) condition.get("lastTransitionTime")).build();
            var status = trainerView.getStatus() != null ? trainerView.getStatus()
                    : new io.fabric8.kubernetes.api.model.batch.v1.JobStatus();
            List<JobCondition> all = new ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
            all.add(ended);
            status.setConditions(all);
            trainerView.setStatus(status);
            return;
        }
    }

    private static Job marked(Job job, String attempt) {
        Job copy = Serialization.clone(job);
        Map<String, String> annotations = new LinkedHashMap<>(copy.getMetadata().getAnnotations() == null ? Map.of()
                : copy.getMetadata().getAnnotations());
        annotations.put(JobLabels.ATTEMPT, attempt);
        copy.getMetadata().setAnnotations(annotations);
        return copy;
    }

    /** The JobSet's {@code status.restarts}. */
    @SuppressWarnings("unchecked")
    public static int restarts(GenericKubernetesResource jobSet) {
        Object status = jobSet.getAdditionalProperties().get("status");
        Object restarts = status instanceof Map<?, ?> map ? ((Map<String, Object>) map).get("restarts") : null;
        return restarts instanceof Number number ? number.intValue() : 0;
    }

    /** The restart a child Job or pod belongs to, by JobSet's label. */
    private static int restartOf(io.fabric8.kubernetes.api.model.HasMetadata object) {
        var labels = object.getMetadata().getLabels();
        String text = labels == null ? null : labels.get(JobSets.RESTARTS_LABEL);
        try {
            return text == null ? 0 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource jobSet) {
        Object spec = jobSet.getAdditionalProperties().get("spec");
        return spec instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> replicatedJobs(GenericKubernetesResource jobSet) {
        Object jobs = spec(jobSet).get("replicatedJobs");
        return jobs instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource jobSet) {
        Object status = jobSet.getAdditionalProperties().get("status");
        Object conditions = status instanceof Map<?, ?> map ? ((Map<String, Object>) map).get("conditions") : null;
        return conditions instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }
}
