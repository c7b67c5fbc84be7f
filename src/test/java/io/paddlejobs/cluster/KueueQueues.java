package io.paddlejobs.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Kueue's queues as a cluster's operator makes them: one flavor, a ClusterQueue with a quota, a LocalQueue into it. */
public final class KueueQueues {

    private static final String API_VERSION = "kueue.x-k8s.io/v1beta2";
    private static final String FLAVOR = "default";

    private KueueQueues() {
    }

    /**
     * A ClusterQueue {@code clusterQueue} admitting from every namespace up to {@code quota}
     * (resource: quantity; what it does not name it does not admit), and the LocalQueue
     * {@code localQueue} into it in {@code namespace}.
     */
    public static void create(KubernetesClient admin, String clusterQueue, Map<String, String> quota, String namespace,
                              String localQueue) {
        admin.resource(object("ResourceFlavor", FLAVOR, null, Map.of())).serverSideApply();
        List<Map<String, Object>> resources = new ArrayList<>();
        quota.forEach((name, amount) -> resources.add(Map.of("name", name, "nominalQuota", amount)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("namespaceSelector", Map.of());
        spec.put("resourceGroups", List.of(Map.of("coveredResources", List.copyOf(quota.keySet()),
                "flavors", List.of(Map.of("name", FLAVOR, "resources", resources)))));
        admin.resource(object("ClusterQueue", clusterQueue, null, spec)).serverSideApply();
        admin.resource(object("LocalQueue", localQueue, namespace, Map.of("clusterQueue", clusterQueue))).serverSideApply();
    }

    static GenericKubernetesResource object(String kind, String name, String namespace, Map<String, Object> spec) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(API_VERSION);
        object.setKind(kind);
        object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        object.setAdditionalProperties(Map.of("spec", spec));
        return object;
    }
}
