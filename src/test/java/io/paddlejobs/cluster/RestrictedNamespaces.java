package io.paddlejobs.cluster;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Namespaces as an operator prepares them for the service: Pod Security "restricted" enforced,
 * and the data claim the jobs mount, bound to a volume of its own (no kubelet ever mounts it).
 */
public final class RestrictedNamespaces {

    private static final AtomicInteger COUNT = new AtomicInteger();

    private RestrictedNamespaces() {
    }

    /** A new namespace named after {@code prefix}, ready for jobs: its default service account and data claim exist. */
    public static String create(KubernetesClient admin, String prefix, String dataClaim) {
        return named(admin, prefix + "-" + COUNT.incrementAndGet(), dataClaim);
    }

    /** The namespace {@code ns}, ready for jobs, as {@link #create} makes it. */
    public static String named(KubernetesClient admin, String ns, String dataClaim) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted")
                .addToLabels("pod-security.kubernetes.io/enforce-version", "latest")
                .endMetadata().build()).create();
        bind(admin, ns, dataClaim, ns + "-data");
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() ->
                admin.serviceAccounts().inNamespace(ns).withName("default").get() != null);
        return ns;
    }

    /** Another claim in {@code ns}, bound to a volume of its own, as an operator provisions one for a team's data set. */
    public static void claim(KubernetesClient admin, String ns, String claim) {
        if (admin.persistentVolumeClaims().inNamespace(ns).withName(claim).get() == null) {
            bind(admin, ns, claim, ns + "-" + claim);
        }
    }

    /** Creates the claim and its volume, and waits until the claim is Bound. */
    private static void bind(KubernetesClient admin, String ns, String claim, String volume) {
        admin.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(volume).endMetadata()
                .withNewSpec().withAccessModes("ReadWriteMany").withStorageClassName("")
                .addToCapacity("storage", new Quantity("1Gi"))
                .withNewNfs().withServer("127.0.0.1").withPath("/" + volume).endNfs()
                .withNewClaimRef().withNamespace(ns).withName(claim).endClaimRef()
                .endSpec().build()).create();
        admin.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(claim).endMetadata()
                .withNewSpec().withAccessModes("ReadWriteMany").withStorageClassName("").withVolumeName(volume)
                .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec()
                .build()).create();
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() ->
                "Bound".equals(admin.persistentVolumeClaims().inNamespace(ns).withName(claim).get().getStatus().getPhase()));
    }
}
