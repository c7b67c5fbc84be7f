package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.util.Map;

/**
 * The Indexed Job {@code <job>-trainer}: one pod per trainer, the completion index being the
 * trainer id, and hostnames {@code <job>-trainer-<i>} under the job's Service. One failed
 * trainer fails the job (no retries: a restarted trainer cannot rejoin a parameter-server
 * round). It owns the job's other objects, and carries the request the job was planned from.
 */
final class TrainerJobManifest {

    private TrainerJobManifest() {
    }

    static Job desired(JobPlan plan, KubernetesProperties settings) {
        int trainers = plan.trainers().count();
        return new JobBuilder()
                .withNewMetadata()
                    .withName(ObjectNames.trainerJob(plan.name()))
                    .withNamespace(plan.namespace())
                    .withLabels(JobLabels.of(plan, Role.TRAINER))
                    .withAnnotations(Map.of(JobLabels.SPEC_ANNOTATION, SpecCodec.write(plan.spec())))
                .endMetadata()
                .withNewSpec()
                    .withCompletionMode("Indexed")
                    .withCompletions(trainers)
                    .withParallelism(trainers)
                    .withBackoffLimit(0)
                    .withTtlSecondsAfterFinished(settings.ttlSecondsAfterFinished())
                    .withTemplate(template(plan, settings))
                .endSpec()
                .build();
    }

    private static PodTemplateSpec template(JobPlan plan, KubernetesProperties settings) {
        PodTemplateSpec template = PodTemplates.of(plan, Role.TRAINER, settings);
        return new PodTemplateSpecBuilder(template)
                .withSpec(new PodSpecBuilder(template.getSpec())
                        .withSubdomain(ObjectNames.service(plan.name()))
                        .withRestartPolicy("Never")
                        .build())
                .build();
    }
}
