package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DataVolumeStepTest {

    @Test
    void theConfiguredClaimIsMountedAtSlashData() {
        var pod = new DataVolumeStep(DataClaim.assumed("team-data")).apply(PodParts.empty());
        assertThat(pod.spec().getVolumes()).singleElement()
                .satisfies(v -> assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("team-data"));
        assertThat(pod.main().getVolumeMounts()).singleElement()
                .satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/data"))
                .satisfies(m -> assertThat(m.getName()).isEqualTo(pod.spec().getVolumes().get(0).getName()))
                .satisfies(m -> assertThat(m.getReadOnly()).isNull());
    }

    @Test
    void aClaimThatCanOnlyBeSharedReadOnlyIsMountedReadOnly() {
        var pod = new DataVolumeStep(new DataClaim("team-data", true)).apply(PodParts.empty());
        assertThat(pod.spec().getVolumes().get(0).getPersistentVolumeClaim().getReadOnly()).isTrue();
        assertThat(pod.main().getVolumeMounts().get(0).getReadOnly()).isTrue();
    }
}
