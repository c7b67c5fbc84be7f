package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.Memory;

/**
 * A memory-backed {@code /dev/shm} for a trainer: the runtime's default is 64 MiB, and Paddle's
 * {@code DataLoader} workers pass batches through shared memory (too little is a "Bus error").
 * Its pages are charged to the container's memory limit, so it is capped at the trainer's
 * memory: what it holds counts in what the trainer was planned to use.
 */
public record SharedMemoryStep(Memory configured, Memory trainerMemory) implements PodStep {

    static final String VOLUME = "dshm";
    public static final String PATH = "/dev/shm";

    @Override
    public PodParts apply(PodParts pod) {
        Memory size = configured.compareTo(trainerMemory) <= 0 ? configured : trainerMemory;
        var volume = new VolumeBuilder().withName(VOLUME)
                .withNewEmptyDir().withMedium("Memory").withSizeLimit(new Quantity(size.toString())).endEmptyDir()
                .build();
        var mount = new VolumeMountBuilder().withName(VOLUME).withMountPath(PATH).build();
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToVolumes(volume).build())
                .withMain(new ContainerBuilder(pod.main()).addToVolumeMounts(mount).build());
    }
}
