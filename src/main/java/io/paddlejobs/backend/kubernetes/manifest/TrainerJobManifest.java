package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.cluster.SpecCodec;
import io.paddlejobs.backend.kubernetes.lifecycle.JobLifecycle;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.util.Map;

/**
 * The Indexed Job {@code <job>-trainer}: one pod per trainer, the completion index being the
 * trainer id, and hostnames {@code <job>-trainer-<i>} under the job's Service. One failed
 * trainer fails the job (no retries: a restarted trainer cannot rejoin a parameter-server
 * round). It owns the job's other objects, and carries the request the job was planned from.
 *
 * <p>It is created suspended when the job has pservers: no trainer pod holds a GPU while the
 * pservers are scheduled and pull their image. The service releases it once every pserver is
 * ready ({@link JobLifecycle}). Its {@code activeDeadlineSeconds} (the request's
 * {@code max_run_time}) counts from that release, as the Job controller starts the clock then.
 * A job in a Kueue queue ({@link KueueLabels}) is not created suspended: Kueue suspends it until it
 * admits it, and its trainers wait for the pservers in their init container; nor is a job Volcano
 * gang-schedules ({@link VolcanoGroups}), whose pods are placed all at once.
 */
final class TrainerJobManifest {

    private TrainerJobManifest() {
    }

    static Job desired(JobPlan plan, KubernetesProperties settings, DataClaim claim, ShippedCode code) {
        int trainers = plan.trainers().count();
        return new JobBuilder()
                .withNewMetadata()
                    .withName(ObjectNames.trainerJob(plan.name()))
                    .withNamespace(plan.namespace())
                    .withLabels(JobLabels.of(plan, Role.TRAINER))
                    .addToLabels(KueueLabels.of(plan, settings, true))
                    .withAnnotations(Map.of(JobLabels.SPEC_ANNOTATION, SpecCodec.write(plan.spec())))
                .endMetadata()
                .withNewSpec()
                    .withCompletionMode("Indexed")
                    .withCompletions(trainers)
                    .withParallelism(trainers)
                    .withBackoffLimit(0)
                    .withSuspend(plan.pservers().count() > 0 && KueueLabels.queue(plan, settings) == null
                            && !VolcanoGroups.chosen(settings) ? true : null)
                    .withActiveDeadlineSeconds(MaxRunTime.seconds(plan))
                    .withTtlSecondsAfterFinished(settings.ttlSecondsAfterFinished())
                    .withTemplate(PodTemplates.of(plan, Role.TRAINER, settings, claim, code))
                .endSpec()
                .build();
    }
}
