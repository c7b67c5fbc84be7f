package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.manifest.step.CodePackageStep;
import io.paddlejobs.backend.kubernetes.manifest.step.DataVolumeStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ExtraVolumesStep;
import io.paddlejobs.backend.kubernetes.manifest.step.GangSchedulingStep;
import io.paddlejobs.backend.kubernetes.manifest.step.HomeStep;
import io.paddlejobs.backend.kubernetes.manifest.step.MainContainerStep;
import io.paddlejobs.backend.kubernetes.manifest.step.NodePlacementStep;
import io.paddlejobs.backend.kubernetes.manifest.step.PserverReadinessStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ReplicaEnvStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ReplicaPodStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ResolveOwnNameStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ResourcesStep;
import io.paddlejobs.backend.kubernetes.manifest.step.RestrictedSecurityStep;
import io.paddlejobs.backend.kubernetes.manifest.step.SecretEnvStep;
import io.paddlejobs.backend.kubernetes.manifest.step.SharedMemoryStep;
import io.paddlejobs.backend.kubernetes.manifest.step.WaitForPserversStep;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.List;

/** The pod template of each role: the steps, in order, that make it. */
public final class PodTemplates {

    private PodTemplates() {
    }

    /** @param code the job's package, {@code null} when it has none */
    public static PodTemplateSpec of(JobPlan plan, Role role, KubernetesProperties settings, DataClaim claim,
                              ShippedCode code) {
        List<PodStep> steps = new ArrayList<>();
        steps.add(new ReplicaPodStep(plan, role, settings.terminationGracePeriod()));
        steps.add(new MainContainerStep(plan, role));
        steps.add(new ReplicaEnvStep(plan, role));
        steps.add(new SecretEnvStep(plan.spec().code().envFromSecrets()));
        steps.add(new ResourcesStep(plan.role(role).perReplica()));
        steps.add(new DataVolumeStep(claim));
        steps.add(new ExtraVolumesStep(plan.spec().placement().volumes()));
        steps.add(new NodePlacementStep(plan.spec().placement()));
        steps.add(new HomeStep());
        if (code != null) {
            steps.add(new CodePackageStep(code)); // its init container before any other
        }
        if (role == Role.PSERVER) {
            steps.add(new PserverReadinessStep(plan.ports().first()));
            steps.add(new ResolveOwnNameStep(plan, settings.waitImage(), settings.pserverWaitTimeout()));
        } else {
            Memory shm = plan.spec().compute().shmSize();
            steps.add(new SharedMemoryStep(shm != null ? shm : Memory.parse(settings.shmSize()),
                    plan.trainers().perReplica().memory()));
            steps.add(new WaitForPserversStep(plan, settings.waitImage(), settings.pserverWaitTimeout()));
        }
        if (VolcanoGroups.chosen(settings)) {
            steps.add(new GangSchedulingStep(ObjectNames.podGroup(plan.name())));
        }
        steps.add(new RestrictedSecurityStep(settings.runAsUser()));
        return PodStep.build(steps).toTemplate();
    }
}
