package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.paddlejobs.backend.TensorBoardScalars;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Ports;
import io.paddlejobs.planning.Role;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The main container: the plan's image running the role's entry point with {@code sh -c} (a
 * single command {@code exec}'d, see {@link EntryPoints}), and the pserver ports. Before the entry
 * point, the job's checkpoint directory is made on the shared claim, so that every attempt finds
 * it; on a claim mounted read-only there is none to make, and the entry point runs all the same.
 */
public record MainContainerStep(JobPlan plan, Role role) implements PodStep {

    static final String MAKE_CHECKPOINT_DIR = "mkdir -p \"$" + PaddleEnv.CHECKPOINT_DIR + "\" 2>/dev/null\n";

    @Override
    public PodParts apply(PodParts pod) {
        var container = new ContainerBuilder(pod.main())
                .withImage(plan.image(role))
                // A failed container's message is its log's end: the replica's last words, read with its pod. Not
                // where the job has secrets: the service cannot mask values it never reads.
                .withTerminationMessagePolicy(plan.spec().code().envFromSecrets().isEmpty() ? "FallbackToLogsOnError" : "File")
                .withCommand("sh", "-c", Expansion.literal(
                        MAKE_CHECKPOINT_DIR + EntryPoints.command(TensorBoardScalars.command(plan, role))));
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
    public static String portName(int port) {
        return "port-" + port;
    }
}
