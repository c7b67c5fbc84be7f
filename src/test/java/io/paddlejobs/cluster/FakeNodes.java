package io.paddlejobs.cluster;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;

/** Nodes with no machine behind them: kwok keeps them Ready and plays their kubelet (see kwok-stages.yaml). */
public final class FakeNodes {

    /** The label by which kwok knows the nodes it manages. */
    static final String MANAGED_LABEL = "kwok.paddlejobs.test/managed";

    private FakeNodes() {
    }

    /** Adds a node with this capacity and waits until kwok reports it Ready. */
    public static void add(KubernetesClient admin, String name, int cpus, String memory, int gpus) {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(cpus)), "memory", new Quantity(memory),
                "pods", new Quantity("110"), "nvidia.com/gpu", new Quantity(Integer.toString(gpus)));
        Node node = new NodeBuilder()
                .withNewMetadata().withName(name)
                .addToLabels(MANAGED_LABEL, "true").addToLabels("kubernetes.io/hostname", name)
                .addToLabels("kubernetes.io/os", "linux").addToLabels("type", "kwok")
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .endMetadata()
                .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus()
                .build();
        admin.nodes().resource(node).create();
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> ready(admin.nodes().withName(name).get()));
    }

    private static boolean ready(Node node) {
        return node != null && node.getStatus() != null && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
