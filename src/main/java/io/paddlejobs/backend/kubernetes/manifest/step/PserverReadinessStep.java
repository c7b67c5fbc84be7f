package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;

/**
 * A pserver is ready once its endpoint accepts TCP connections: the trainers are released only
 * when every pserver is. Readiness never restarts anything; it only tells.
 */
public record PserverReadinessStep(int port) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        return pod.withMain(new ContainerBuilder(pod.main())
                .withNewReadinessProbe()
                    .withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket()
                    .withPeriodSeconds(2)
                    .withFailureThreshold(1)
                .endReadinessProbe()
                .build());
    }
}
