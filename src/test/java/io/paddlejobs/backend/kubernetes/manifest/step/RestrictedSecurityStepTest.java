package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import org.junit.jupiter.api.Test;

class RestrictedSecurityStepTest {

    private final PodParts pod = new RestrictedSecurityStep(1000).apply(PodParts.empty()
            .withSpec(new PodSpecBuilder().withInitContainers(new ContainerBuilder().withName("init").build()).build()));

    @Test
    void podRunsAsNonRootWithTheRuntimeDefaultSeccompProfile() {
        var context = pod.spec().getSecurityContext();
        assertThat(context.getRunAsNonRoot()).isTrue();
        assertThat(context.getRunAsUser()).isEqualTo(1000L);
        assertThat(context.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    @Test
    void everyContainerDropsAllCapabilitiesAndCannotEscalate() {
        for (Container container : java.util.List.of(pod.main(), pod.spec().getInitContainers().get(0))) {
            var context = container.getSecurityContext();
            assertThat(context.getAllowPrivilegeEscalation()).as(container.getName()).isFalse();
            assertThat(context.getCapabilities().getDrop()).as(container.getName()).containsExactly("ALL");
            assertThat(context.getRunAsNonRoot()).as(container.getName()).isTrue();
            assertThat(context.getSeccompProfile().getType()).as(container.getName()).isEqualTo("RuntimeDefault");
            assertThat(context.getPrivileged()).as(container.getName()).isNull();
        }
    }

    @Test
    void podGetsNoServiceAccountToken() {
        assertThat(pod.spec().getAutomountServiceAccountToken()).isFalse();
    }
}
