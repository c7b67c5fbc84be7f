package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import java.util.List;

/**
 * The namespace's data claim, as a job may use it. Every replica of every job of the namespace
 * mounts it, on whatever node it lands, so it must be shareable: {@code ReadWriteMany}, or
 * {@code ReadOnlyMany} (then mounted read-only). A {@code ReadWriteOnce} claim attaches to one
 * node only: pods on any other node would hang in {@code ContainerCreating} (Multi-Attach), which
 * is why it is refused at submit rather than discovered by a stuck job.
 *
 * @param readOnly whether the claim can only be mounted read-only
 */
public record DataClaim(String name, boolean readOnly) {

    static final String RWX = "ReadWriteMany";
    static final String ROX = "ReadOnlyMany";

    /** The claim as the manifests use it when nobody has looked at it (tests, and dry runs of pure code). */
    public static DataClaim assumed(String name) {
        return new DataClaim(name, false);
    }

    /**
     * Looks the claim up.
     *
     * @param requireShared whether a claim that cannot be shared across nodes is refused (single-node
     *                      clusters may turn it off)
     * @throws DataClaimUnusableException when it is missing, or cannot be shared across nodes
     */
    public static DataClaim check(KubernetesClient client, KubernetesProperties settings, String namespace) {
        String name = settings.dataClaim();
        PersistentVolumeClaim claim;
        try {
            claim = client.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw ApiErrors.translate(e, "read the data claim '" + name + "'");
        }
        if (claim == null) {
            throw DataClaimUnusableException.missing(namespace, name);
        }
        List<String> modes = accessModes(claim);
        if (modes.contains(RWX)) {
            return new DataClaim(name, false);
        }
        if (modes.contains(ROX)) {
            return new DataClaim(name, true);
        }
        if (!settings.requireSharedDataClaim()) {
            return new DataClaim(name, false);
        }
        throw DataClaimUnusableException.notShared(namespace, name, modes);
    }

    /** What the bound volume gives, else what the claim asks for. */
    private static List<String> accessModes(PersistentVolumeClaim claim) {
        if (claim.getStatus() != null && claim.getStatus().getAccessModes() != null
                && !claim.getStatus().getAccessModes().isEmpty()) {
            return claim.getStatus().getAccessModes();
        }
        return claim.getSpec() == null || claim.getSpec().getAccessModes() == null ? List.of()
                : claim.getSpec().getAccessModes();
    }
}
