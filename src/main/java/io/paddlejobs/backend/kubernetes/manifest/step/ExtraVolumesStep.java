package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PlacementAllowList;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobRequest;
import java.util.List;

/**
 * The request's extra volumes (claims and config maps of the job's namespace the operator allowed:
 * {@link PlacementAllowList}), each mounted read-only in the main container. Read-only, because
 * replicas of a job, and jobs of a namespace, share them: what a job writes goes to its data claim.
 */
public record ExtraVolumesStep(List<JobRequest.Volume> volumes) implements PodStep {

    /** Volume names of their own, apart from the service's ({@code data}, {@code dshm}, ...). */
    public static String volumeName(int index) {
        return "extra-" + index;
    }

    @Override
    public PodParts apply(PodParts pod) {
        if (volumes.isEmpty()) {
            return pod;
        }
        var spec = new PodSpecBuilder(pod.spec());
        var main = new ContainerBuilder(pod.main());
        for (int i = 0; i < volumes.size(); i++) {
            JobRequest.Volume v = volumes.get(i);
            var volume = new VolumeBuilder().withName(volumeName(i));
            if (v.claim() != null) {
                volume.withNewPersistentVolumeClaim().withClaimName(v.claim()).withReadOnly(true).endPersistentVolumeClaim();
            } else {
                volume.withNewConfigMap().withName(v.configMap()).endConfigMap();
            }
            spec.addToVolumes(volume.build());
            main.addToVolumeMounts(new VolumeMountBuilder().withName(volumeName(i)).withMountPath(v.mountPath())
                    .withReadOnly(true).build());
        }
        return pod.withSpec(spec.build()).withMain(main.build());
    }
}
