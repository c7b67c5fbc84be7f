package io.paddlejobs.backend.kubernetes.manifest;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.paddlejobs.backend.kubernetes.manifest.step.MainContainerStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Ports;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The headless Service {@code <job>}: it gives every replica of the job a stable DNS name
 * ({@code <hostname>.<job>}). Addresses are published before pods are ready, because replicas
 * must find each other while they start.
 */
final class HeadlessServiceManifest {

    private HeadlessServiceManifest() {
    }

    static Service desired(JobPlan plan) {
        return new ServiceBuilder()
                .withNewMetadata()
                    .withName(ObjectNames.service(plan.name()))
                    .withNamespace(plan.namespace())
                    .withLabels(JobLabels.of(plan))
                .endMetadata()
                .withNewSpec()
                    .withClusterIP("None")
                    .withSelector(JobLabels.selector(plan.name()))
                    .withPublishNotReadyAddresses(true)
                    .withPorts(ports(plan.ports()))
                .endSpec()
                .build();
    }

    private static List<ServicePort> ports(Ports ports) {
        return IntStream.rangeClosed(ports.first(), ports.last())
                .mapToObj(port -> new ServicePortBuilder().withName(MainContainerStep.portName(port)).withPort(port)
                        .withNewTargetPort(port).withProtocol("TCP").build())
                .toList();
    }
}
