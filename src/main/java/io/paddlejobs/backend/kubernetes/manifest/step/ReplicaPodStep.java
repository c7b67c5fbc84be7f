package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;

/**
 * What makes a pod one replica of its job: the role's labels, the job's Service as its DNS
 * subdomain (with the Indexed Job's hostname, {@code <workload>-<i>.<job>} resolves), no
 * restarts in place (a replica that fails fails its Job), and the grace period between SIGTERM
 * and SIGKILL when it is stopped. The pod's containers share one process namespace, so that the
 * entry point is not PID 1: the kernel drops a signal to PID 1 that has no handler, so a
 * training script that installs none would only ever be SIGKILLed at the end of the grace period.
 */
public record ReplicaPodStep(JobPlan plan, Role role, Duration gracePeriod) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        return pod.withMetadata(new ObjectMetaBuilder(pod.metadata()).withLabels(JobLabels.of(plan, role)).build())
                .withSpec(new PodSpecBuilder(pod.spec())
                        .withSubdomain(ObjectNames.service(plan.name()))
                        .withRestartPolicy("Never")
                        .withTerminationGracePeriodSeconds(gracePeriod.toSeconds())
                        .withShareProcessNamespace(true)
                        .build());
    }
}
