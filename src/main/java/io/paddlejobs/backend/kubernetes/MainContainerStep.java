package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Ports;
import io.paddlejobs.planning.Role;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The main container: the plan's image running the role's entry point with {@code sh -c} (a
 * single command {@code exec}'d, see {@link EntryPoints}), and the pserver ports.
 */
record MainContainerStep(JobPlan plan, Role role) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        var container = new ContainerBuilder(pod.main())
                .withImage(plan.image())
                .withCommand("sh", "-c", Expansion.literal(EntryPoints.command(plan.role(role).entryPoint())));
        if (role == Role.PSERVER) {
            container.withPorts(containerPorts(plan.ports()));
        }
        return pod.withMain(container.build());
    }

    /** Every port a pserver listens on, dense ports then sparse ones. */
    static List<ContainerPort> containerPorts(Ports ports) {
        return IntStream.rangeClosed(ports.first(), ports.last())
                .mapToObj(port -> new ContainerPortBuilder().withName(portName(port)).withContainerPort(port)
                        .withProtocol("TCP").build())
                .toList();
    }

    /** Port names must be unique, at most 15 characters and contain a letter. */
    static String portName(int port) {
        return "port-" + port;
    }
}
