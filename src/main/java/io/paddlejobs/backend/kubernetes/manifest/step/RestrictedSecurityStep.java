package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;

/**
 * Pod Security "restricted" on the pod and on every container, so that jobs run in namespaces
 * that enforce it. Apply it last: it covers the containers earlier steps added. The pod also
 * gets no service-account token (a training job has no business with the API server) and no
 * service links (every Service of the namespace as env vars, which could shadow nothing of
 * ours but bloats the environment).
 */
public record RestrictedSecurityStep(long runAsUser) implements PodStep {

    @Override
    public PodParts apply(PodParts pod) {
        var spec = new PodSpecBuilder(pod.spec())
                .withSecurityContext(podContext(runAsUser))
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withInitContainers(pod.spec().getInitContainers().stream().map(RestrictedSecurityStep::restrict).toList())
                .build();
        return pod.withSpec(spec).withMain(restrict(pod.main()));
    }

    public static PodSecurityContext podContext(long runAsUser) {
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withRunAsUser(runAsUser)
                .withRunAsGroup(runAsUser)
                .withFsGroup(runAsUser)
                // Change ownership of a volume only when its root does not match already: not a
                // recursive chown of a whole dataset at every pod start.
                .withFsGroupChangePolicy("OnRootMismatch")
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }

    static SecurityContext containerContext() {
        return new SecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }

    private static Container restrict(Container container) {
        return new ContainerBuilder(container).withSecurityContext(containerContext()).build();
    }
}
