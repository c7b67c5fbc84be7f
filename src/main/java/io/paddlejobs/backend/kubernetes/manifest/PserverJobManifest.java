package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;

/**
 * The Indexed Job {@code <job>-pserver}: one pod per pserver, hostnames {@code <job>-pserver-<i>}
 * under the job's Service, exactly as a StatefulSet would name them. Unlike a StatefulSet it
 * never brings a pserver back: a restarted pserver has lost its tables, and trainers would carry
 * on against fresh parameters or hang at a barrier. So a pod that fails fails this Job
 * ({@code restartPolicy: Never}, {@code backoffLimit: 0}), and the service fails the job with the
 * pserver's reason. JobSet would give the same and more, but is not installed on most clusters;
 * two plain Jobs need nothing beyond the core API. Owned by the trainer Job, so it goes with it.
 */
final class PserverJobManifest {

    private PserverJobManifest() {
    }

    static Job desired(JobPlan plan, KubernetesProperties settings, DataClaim claim, ShippedCode code) {
        int pservers = plan.pservers().count();
        return new JobBuilder()
                .withNewMetadata()
                    .withName(ObjectNames.pserverJob(plan.name()))
                    .withNamespace(plan.namespace())
                    .withLabels(JobLabels.of(plan, Role.PSERVER))
                    .addToLabels(KueueLabels.of(plan, settings, false))
                .endMetadata()
                .withNewSpec()
                    .withCompletionMode("Indexed")
                    .withCompletions(pservers)
                    .withParallelism(pservers)
                    .withBackoffLimit(0)
                    .withTemplate(PodTemplates.of(plan, Role.PSERVER, settings, claim, code))
                .endSpec()
                .build();
    }
}
