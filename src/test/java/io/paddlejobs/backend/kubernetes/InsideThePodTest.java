package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.step.EntryPoints;
import io.paddlejobs.backend.kubernetes.manifest.step.HomeStep;
import io.paddlejobs.backend.kubernetes.manifest.step.ReplicaPodStep;
import io.paddlejobs.backend.kubernetes.manifest.step.RestrictedSecurityStep;
import io.paddlejobs.backend.kubernetes.manifest.step.SharedMemoryStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a replica finds inside its pod: a writable home, shared memory, and the signals meant for it. */
class InsideThePodTest {

    private final Manifests manifests = Manifests.desired(Plans.plan("mnist", 2), Settings.defaults(KubernetesProperties.class));

    @Test
    void aReplicaHasAWritableHomeAsItsWorkingDirectory() {
        var pod = new HomeStep().apply(PodParts.empty());
        assertThat(pod.spec().getVolumes()).singleElement().satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
        assertThat(pod.main().getWorkingDir()).isEqualTo("/home/paddle");
        assertThat(pod.main().getVolumeMounts()).singleElement()
                .satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/home/paddle"));
        assertThat(pod.main().getEnv()).containsExactly(new EnvVar("HOME", "/home/paddle", null));
    }

    @Test
    void aHomeTheUserSetsWins() {
        var withUserHome = PodParts.empty().withMain(new ContainerBuilder(PodParts.empty().main())
                .addToEnv(new EnvVar("HOME", "/data/me", null)).build());
        assertThat(new HomeStep().apply(withUserHome).main().getEnv()).containsExactly(new EnvVar("HOME", "/data/me", null));
    }

    @Test
    void trainersGetAMemoryBackedDevShmCappedAtTheirMemory() {
        var pod = new SharedMemoryStep(Memory.parse("1Gi"), Memory.parse("256Mi")).apply(PodParts.empty());
        assertThat(pod.spec().getVolumes()).singleElement().satisfies(v -> {
            assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory");
            assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("256Mi"));
        });
        assertThat(pod.main().getVolumeMounts()).singleElement().satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/dev/shm"));
        assertThat(new SharedMemoryStep(Memory.parse("1Gi"), Memory.parse("8Gi")).apply(PodParts.empty()).spec()
                .getVolumes().get(0).getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("1Gi"));
        assertThat(manifests.trainerJob().getSpec().getTemplate().getSpec().getVolumes()).extracting(v -> v.getName())
                .contains("dshm");
        assertThat(manifests.pserverJob().getSpec().getTemplate().getSpec().getVolumes()).extracting(v -> v.getName())
                .doesNotContain("dshm");
    }

    @Test
    void volumesChangeOwnershipOnlyWhenTheirRootDoesNotMatch() {
        assertThat(RestrictedSecurityStep.podContext(1000).getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
    }

    @Test
    void theEntryPointIsNotPidOneAndHasTheConfiguredGracePeriod() {
        var pod = new ReplicaPodStep(Plans.plan("mnist", 1), Role.TRAINER, Duration.ofSeconds(90)).apply(PodParts.empty());
        assertThat(pod.spec().getShareProcessNamespace()).isTrue();
        assertThat(pod.spec().getTerminationGracePeriodSeconds()).isEqualTo(90L);
        assertThat(pod.spec().getRestartPolicy()).isEqualTo("Never");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '#', value = {
            "python train.py # exec python train.py",
            "python3 -u /data/train.py > x # exec python3 -u /data/train.py > x",
            "cd /data && python train.py # cd /data && python train.py",
            "python a.py; python b.py # python a.py; python b.py",
            "A=1 python train.py # A=1 python train.py",
            "exec python train.py # exec python train.py",
            "python a.py | tee log # python a.py | tee log",
            "if true; then x; fi # if true; then x; fi"})
    void aSingleCommandIsExecdSoThatItGetsTheSignalAndShellSyntaxIsLeftAlone(String entryPoint, String command) {
        assertThat(EntryPoints.command(entryPoint)).isEqualTo(command);
    }
}
