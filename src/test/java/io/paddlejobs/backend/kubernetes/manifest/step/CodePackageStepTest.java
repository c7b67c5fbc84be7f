package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.KubeletEnv;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.PackageFetchProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.manifest.PodTemplates;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CodePackageStepTest {

    static final String ID = "sha256:" + "ab".repeat(32);
    static final String SIGNED = "/packages/" + ID + "/content?namespace=ml&key=k3y";

    /** A store that serves every namespace's package at one signed path, 64 MiB that unpack to 1 GiB at most. */
    static final CodePackages PACKAGES = new CodePackages() {
        @Override
        public boolean exists(String namespace, String id) {
            return true;
        }

        @Override
        public void unpackInto(String namespace, String id, Path directory) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Fetch fetch(String namespace, String id) {
            return new Fetch(SIGNED, 64L << 20, 1L << 30);
        }
    };

    static final ShippedCode.Source SOURCE = new ShippedCode.Source(new PackageFetchProperties(
            URI.create("http://paddle-jobs.tools.svc:8080/"), "registry.example/fetch:1", Duration.ofMinutes(3)), PACKAGES);

    static JobPlan packaged(String name, int trainers) {
        return Plans.plan(JobRequests.named(name, "python train.py").numCpus(trainers).codePackage(ID).build());
    }

    private static PodTemplateSpec template(JobPlan plan, Role role) {
        return PodTemplates.of(plan, role, Settings.defaults(KubernetesProperties.class), DataClaim.assumed("paddle-data"),
                SOURCE.of(plan));
    }

    private static Container fetchContainer(PodTemplateSpec template) {
        return template.getSpec().getInitContainers().stream()
                .filter(c -> c.getName().equals(CodePackageStep.CONTAINER)).findFirst().orElseThrow();
    }

    @Test
    void theFetchRunsFirstWithTheSignedUrlUnderTheServicesInClusterAddress() {
        var template = template(packaged("mnist", 2), Role.TRAINER);

        assertThat(template.getSpec().getInitContainers()).extracting(Container::getName)
                .containsExactly(CodePackageStep.CONTAINER, WaitForPserversStep.CONTAINER);
        Container fetch = fetchContainer(template);
        assertThat(fetch.getImage()).isEqualTo("registry.example/fetch:1");
        assertThat(KubeletEnv.resolve(fetch.getEnv(), Map.of())).containsExactlyInAnyOrderEntriesOf(Map.of(
                "PACKAGE_ID", ID,
                "PACKAGE_URL", "http://paddle-jobs.tools.svc:8080" + SIGNED,
                "MAX_BYTES", Long.toString(64L << 20),
                "TIMEOUT_SECONDS", "180"));
        assertThat(fetch.getCommand()).hasSize(5).startsWith("sh", "-c").endsWith(CodePackageStep.CONTAINER,
                CodePackageStep.FETCH_PATH);
        assertThat(KubeletEnv.expand(fetch.getCommand().get(2), Map.of())).isEqualTo(CodePackageStep.SCRIPT);
        assertThat(fetch.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
    }

    @Test
    void theMainContainerStartsInTheUnpackedPackageAndHomeStaysApart() {
        var template = template(packaged("mnist", 1), Role.TRAINER);
        Container main = template.getSpec().getContainers().get(0);

        assertThat(main.getWorkingDir()).isEqualTo(CodePackageStep.WORKING_DIR);
        assertThat(main.getVolumeMounts()).anySatisfy(mount -> {
            assertThat(mount.getName()).isEqualTo(CodePackageStep.VOLUME);
            assertThat(mount.getMountPath()).isEqualTo(CodePackageStep.WORKING_DIR);
            assertThat(mount.getSubPath()).as("the archive lands beside the package, never in it").isEqualTo("code");
        });
        assertThat(fetchContainer(template).getVolumeMounts()).singleElement()
                .satisfies(mount -> assertThat(mount.getMountPath()).isEqualTo(CodePackageStep.FETCH_PATH));
        assertThat(main.getEnv()).anySatisfy(env -> {
            assertThat(env.getName()).isEqualTo("HOME");
            assertThat(env.getValue()).isEqualTo(HomeStep.PATH);
        });
    }

    @Test
    void theVolumeIsAnEmptyDirWithRoomForTheArchiveAndWhatItUnpacksToOnly() {
        var volume = template(packaged("mnist", 1), Role.TRAINER).getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(CodePackageStep.VOLUME)).findFirst().orElseThrow();

        assertThat(volume.getEmptyDir()).isNotNull();
        assertThat(Quantity.getAmountInBytes(volume.getEmptyDir().getSizeLimit()).longValueExact())
                .isEqualTo((64L << 20) + (1L << 30));
    }

    @Test
    void theFetchIsRestrictedAndSizedLikeTheOtherInitContainers() {
        Container fetch = fetchContainer(template(packaged("mnist", 1), Role.PSERVER));

        assertThat(fetch.getSecurityContext()).isEqualTo(RestrictedSecurityStep.containerContext());
        assertThat(fetch.getResources().getRequests()).isEqualTo(fetch.getResources().getLimits())
                .containsOnlyKeys("cpu", "memory");
    }

    @Test
    void pserversGetThePackageTooAndAJobWithoutOneGetsNoFetch() {
        assertThat(template(packaged("mnist", 1), Role.PSERVER).getSpec().getContainers().get(0).getWorkingDir())
                .isEqualTo(CodePackageStep.WORKING_DIR);

        var plain = Plans.plan("plain", 1);
        var template = template(plain, Role.TRAINER);
        assertThat(template.getSpec().getInitContainers()).extracting(Container::getName)
                .doesNotContain(CodePackageStep.CONTAINER);
        assertThat(template.getSpec().getContainers().get(0).getWorkingDir()).isEqualTo(HomeStep.PATH);
    }

    @Test
    void withoutTheServiceUrlNothingShipsAndAPackagedPlanNeverGetsThisFar() {
        var unset = new ShippedCode.Source(PackageFetchProperties.unset(), PACKAGES);

        assertThat(unset.configured()).isFalse();
        assertThat(ShippedCode.Source.NONE.configured()).isFalse();
        assertThat(SOURCE.configured()).isTrue();
        assertThat(unset.of(Plans.plan("plain", 1))).isNull();
        assertThatThrownBy(() -> unset.of(packaged("mnist", 1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aServiceUrlThatIsNotHttpIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new PackageFetchProperties(URI.create("paddle-jobs:8080"), "busybox:1.36",
                Duration.ofMinutes(1))).hasMessageContaining("paddlejobs.kubernetes.packages.service-url");
    }
}
