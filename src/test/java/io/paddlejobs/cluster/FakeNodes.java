package io.paddlejobs.cluster;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Nodes with no machine behind them: kwok keeps them Ready and plays their kubelet (see kwok-stages.yaml). */
public final class FakeNodes {

    /** The label by which kwok knows the nodes it manages. */
    static final String MANAGED_LABEL = "kwok.paddlejobs.test/managed";

    private FakeNodes() {
    }

    /** Adds a node with this capacity and waits until kwok reports it Ready. */
    public static void add(KubernetesClient admin, String name, int cpus, String memory, int gpus) {
        admin.nodes().resource(node(name, cpus, memory, gpus).build()).create();
        awaitReady(admin, name);
    }

    /**
     * Adds a node of a pool, labelled and tainted as an operator marks a pool's nodes (a GPU pool, a team's
     * dedicated nodes): only pods that tolerate the taint are placed there. When not there yet (the control
     * plane lives as long as the test JVM); waits until kwok reports it Ready.
     */
    public static void addToPool(KubernetesClient admin, String name, int cpus, String memory, int gpus,
                                 Map<String, String> labels, Taint taint) {
        if (admin.nodes().withName(name).get() == null) {
            admin.nodes().resource(node(name, cpus, memory, gpus)
                    .editMetadata().addToLabels(labels).endMetadata()
                    .withNewSpec().withTaints(taint).endSpec()
                    .build()).create();
        }
        awaitReady(admin, name);
    }

    /**
     * Adds {@code count} nodes named {@code prefix0}, {@code prefix1}, ... without GPUs (those not there
     * yet: the control plane lives as long as the test JVM), and waits until kwok reports all Ready.
     */
    public static void addMany(KubernetesClient admin, String prefix, int count, int cpus, String memory) {
        List<String> names = IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
        names.stream().filter(name -> admin.nodes().withName(name).get() == null)
                .forEach(name -> admin.nodes().resource(node(name, cpus, memory, 0).build()).create());
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> names.stream().allMatch(name -> ready(admin.nodes().withName(name).get())));
    }

    private static void awaitReady(KubernetesClient admin, String name) {
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> ready(admin.nodes().withName(name).get()));
    }

    private static NodeBuilder node(String name, int cpus, String memory, int gpus) {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(cpus)), "memory", new Quantity(memory),
                "pods", new Quantity("110"), "nvidia.com/gpu", new Quantity(Integer.toString(gpus)));
        return new NodeBuilder()
                .withNewMetadata().withName(name)
                .addToLabels(MANAGED_LABEL, "true").addToLabels("kubernetes.io/hostname", name)
                .addToLabels("kubernetes.io/os", "linux").addToLabels("type", "kwok")
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .endMetadata()
                .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus();
    }

    private static boolean ready(Node node) {
        return node != null && node.getStatus() != null && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
