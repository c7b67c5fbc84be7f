package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Resources;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourcesStepTest {

    @Test
    void cpuAndMemoryAreRequestedExactlyAsLimited() {
        var resources = new ResourcesStep(new Resources(new Cpu(500), 0, Memory.parse("512Mi")))
                .apply(PodParts.empty()).main().getResources();
        assertThat(resources.getRequests()).isEqualTo(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("512Mi")));
        assertThat(resources.getLimits()).isEqualTo(resources.getRequests());
    }

    @Test
    void gpusAreNvidiaLimits() {
        var resources = new ResourcesStep(new Resources(Cpu.cores(4), 2, Memory.parse("8Gi")))
                .apply(PodParts.empty()).main().getResources();
        assertThat(resources.getLimits()).containsEntry("nvidia.com/gpu", new Quantity("2"))
                .containsEntry("cpu", new Quantity("4"));
        assertThat(resources.getRequests()).doesNotContainKey("nvidia.com/gpu");
    }

    @Test
    void noGpuMeansNoGpuResource() {
        var resources = new ResourcesStep(new Resources(Cpu.cores(1), 0, Memory.parse("1Gi")))
                .apply(PodParts.empty()).main().getResources();
        assertThat(resources.getLimits()).doesNotContainKey("nvidia.com/gpu");
    }
}
