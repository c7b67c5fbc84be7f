package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;

/**
 * The StatefulSet {@code <job>-pserver}: one pod per pserver, each with the stable hostname
 * {@code <job>-pserver-<i>} under the job's Service. All start at once (Parallel): pservers do
 * not depend on each other.
 */
final class PserverStatefulSetManifest {

    private PserverStatefulSetManifest() {
    }

    static StatefulSet desired(JobPlan plan, KubernetesProperties settings) {
        return new StatefulSetBuilder()
                .withNewMetadata()
                    .withName(ObjectNames.statefulSet(plan.name()))
                    .withNamespace(plan.namespace())
                    .withLabels(JobLabels.of(plan, Role.PSERVER))
                .endMetadata()
                .withNewSpec()
                    .withServiceName(ObjectNames.service(plan.name()))
                    .withReplicas(plan.pservers().count())
                    .withPodManagementPolicy("Parallel")
                    .withNewSelector().withMatchLabels(JobLabels.selector(plan.name(), Role.PSERVER)).endSelector()
                    .withTemplate(PodTemplates.of(plan, Role.PSERVER, settings))
                .endSpec()
                .build();
    }
}
