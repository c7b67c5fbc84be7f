package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.paddlejobs.backend.kubernetes.KubernetesSite;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;

/**
 * The user's storage: the namespace's claim, mounted at {@link KubernetesSite#DATA_PATH} in the
 * main container; read-only when the claim can only be shared that way.
 */
public record DataVolumeStep(DataClaim claim) implements PodStep {

    static final String VOLUME = "data";

    @Override
    public PodParts apply(PodParts pod) {
        var volume = new VolumeBuilder().withName(VOLUME)
                .withNewPersistentVolumeClaim().withClaimName(claim.name()).withReadOnly(claim.readOnly() ? true : null)
                .endPersistentVolumeClaim()
                .build();
        var mount = new VolumeMountBuilder().withName(VOLUME).withMountPath(KubernetesSite.DATA_PATH)
                .withReadOnly(claim.readOnly() ? true : null).build();
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToVolumes(volume).build())
                .withMain(new ContainerBuilder(pod.main()).addToVolumeMounts(mount).build());
    }
}
