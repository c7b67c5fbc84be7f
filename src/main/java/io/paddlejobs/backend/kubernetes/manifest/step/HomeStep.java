package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;

/**
 * A writable home and working directory for a replica that runs as a non-root user in an image
 * built for root: training images set {@code HOME=/root} (mode 700) and a root-owned working
 * directory, so caches (pretrained weights, the CUDA JIT cache, matplotlib), {@code pip install
 * --user} and anything writing to {@code ~} or {@code .} would fail. An emptyDir is owned by the
 * pod's fsGroup. A {@code HOME} in the user's env wins.
 */
public record HomeStep() implements PodStep {

    static final String VOLUME = "home";
    public static final String PATH = "/home/paddle";

    @Override
    public PodParts apply(PodParts pod) {
        var volume = new VolumeBuilder().withName(VOLUME).withNewEmptyDir().endEmptyDir().build();
        var mount = new VolumeMountBuilder().withName(VOLUME).withMountPath(PATH).build();
        var main = new ContainerBuilder(pod.main()).addToVolumeMounts(mount).withWorkingDir(PATH);
        boolean userHome = pod.main().getEnv() != null && pod.main().getEnv().stream().anyMatch(e -> e.getName().equals("HOME"));
        if (!userHome) {
            main.addToEnv(new EnvVar("HOME", PATH, null));
        }
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToVolumes(volume).build()).withMain(main.build());
    }
}
