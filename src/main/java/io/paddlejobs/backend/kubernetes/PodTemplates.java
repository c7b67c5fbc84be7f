package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.List;

/** The pod template of each role: the steps, in order, that make it. */
final class PodTemplates {

    private PodTemplates() {
    }

    static PodTemplateSpec of(JobPlan plan, Role role, KubernetesProperties settings) {
        List<PodStep> steps = new ArrayList<>();
        steps.add(pod -> pod.withMetadata(new ObjectMetaBuilder().withLabels(JobLabels.of(plan, role)).build()));
        steps.add(new MainContainerStep(plan, role));
        steps.add(new ReplicaEnvStep(plan, role));
        steps.add(new ResourcesStep(plan.role(role).perReplica()));
        steps.add(new DataVolumeStep(settings.dataClaim()));
        if (role == Role.TRAINER) {
            steps.add(new WaitForPserversStep(plan, settings.waitImage(), settings.pserverWaitTimeout()));
        }
        steps.add(new RestrictedSecurityStep(settings.runAsUser()));
        return PodStep.build(steps).toTemplate();
    }
}
