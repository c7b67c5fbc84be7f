package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.planning.JobRequest;
import java.util.Map;
import java.util.TreeMap;

/**
 * The request's secret variables as references to Secrets of the job's namespace, which the kubelet
 * resolves when it starts the container: the service never reads a Secret (its role may not), and the
 * value is in no object it creates, no plan and no status. A Secret or key that is not there keeps the
 * pod from starting ({@code CreateContainerConfigError}), which the job's status then says.
 */
public record SecretEnvStep(Map<String, JobRequest.SecretKey> secrets) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        if (secrets.isEmpty()) {
            return pod;
        }
        var main = new ContainerBuilder(pod.main());
        new TreeMap<>(secrets).forEach((name, ref) -> main.addToEnv(new EnvVarBuilder().withName(name)
                .withNewValueFrom().withNewSecretKeyRef().withName(ref.secret()).withKey(ref.key()).withOptional(false)
                .endSecretKeyRef().endValueFrom().build()));
        return pod.withMain(main.build());
    }
}
