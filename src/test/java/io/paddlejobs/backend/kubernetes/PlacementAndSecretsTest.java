package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.PlacementAllowList;
import io.paddlejobs.backend.kubernetes.manifest.step.ExtraVolumesStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.testing.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a request asks of the cluster's nodes, volumes and Secrets, in the pods' templates, and what the operator allows. */
class PlacementAndSecretsTest {

    private final KubernetesProperties settings = Settings.defaults(KubernetesProperties.class);

    private static JobRequest request() {
        return JobRequests.named("ctr", "python train.py").numCpus(2)
                .image("paddle:2.6").pserverImage("paddle:2.6-ps")
                .pserverEntryPoint("python train.py --role=server")
                .env(Map.of("SHARED", "both", "ROLE_NOTE", "job"))
                .pserverEnv(Map.of("ROLE_NOTE", "ps")).trainerEnv(Map.of("ROLE_NOTE", "trainer"))
                .envFromSecrets(Map.of("AWS_SECRET_ACCESS_KEY", new JobRequest.SecretKey("s3", "secret")))
                .shmSize(Memory.parse("512Mi"))
                .nodeSelector(Map.of("pool", "cpu"))
                .tolerations(List.of(new JobRequest.Toleration("dedicated", "Equal", "training", "NoSchedule")))
                .nodeAffinity(List.of(new JobRequest.NodeRequirement("zone", "In", List.of("a"))))
                .volumes(List.of(new JobRequest.Volume("ctr-data", null, "/mnt/ctr")))
                .build();
    }

    @Test
    void eachRoleRunsItsOwnImageAndEnvironmentOnTheNodesAskedFor() {
        Manifests manifests = Manifests.desired(Plans.plan(request()), settings);
        PodSpec pservers = manifests.pserverJob().getSpec().getTemplate().getSpec();
        PodSpec trainers = manifests.trainerJob().getSpec().getTemplate().getSpec();

        assertThat(main(pservers).getImage()).isEqualTo("paddle:2.6-ps");
        assertThat(main(trainers).getImage()).isEqualTo("paddle:2.6");
        assertThat(value(main(pservers), "ROLE_NOTE")).isEqualTo("ps");
        assertThat(value(main(trainers), "ROLE_NOTE")).isEqualTo("trainer");
        assertThat(value(main(trainers), "SHARED")).isEqualTo("both");
        for (PodSpec spec : List.of(pservers, trainers)) {
            assertThat(spec.getNodeSelector()).containsExactlyEntriesOf(Map.of("pool", "cpu"));
            assertThat(spec.getTolerations()).singleElement().satisfies(t -> {
                assertThat(t.getKey()).isEqualTo("dedicated");
                assertThat(t.getOperator()).isEqualTo("Equal");
                assertThat(t.getValue()).isEqualTo("training");
                assertThat(t.getEffect()).isEqualTo("NoSchedule");
            });
            var term = spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms();
            assertThat(term).singleElement().satisfies(t -> assertThat(t.getMatchExpressions()).singleElement()
                    .satisfies(r -> assertThat(r.getKey() + " " + r.getOperator() + " " + r.getValues()).isEqualTo("zone In [a]")));
            assertThat(spec.getVolumes()).filteredOn(v -> v.getName().equals(ExtraVolumesStep.volumeName(0)))
                    .singleElement().satisfies(v -> {
                        assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("ctr-data");
                        assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue();
                    });
            assertThat(main(spec).getVolumeMounts()).filteredOn(m -> m.getMountPath().equals("/mnt/ctr"))
                    .singleElement().satisfies(m -> assertThat(m.getReadOnly()).isTrue());
        }
        assertThat(trainers.getVolumes()).filteredOn(v -> v.getEmptyDir() != null && "Memory".equals(v.getEmptyDir().getMedium()))
                .singleElement().satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("512Mi")));
    }

    @Test
    void aSecretIsAReferenceTheKubeletResolvesAndItsValueIsInNoObject() {
        Manifests manifests = Manifests.desired(Plans.plan(request()), settings);
        for (var job : List.of(manifests.pserverJob(), manifests.trainerJob())) {
            EnvVar secret = main(job.getSpec().getTemplate().getSpec()).getEnv().stream()
                    .filter(v -> v.getName().equals("AWS_SECRET_ACCESS_KEY")).findFirst().orElseThrow();
            assertThat(secret.getValue()).isNull();
            assertThat(secret.getValueFrom().getSecretKeyRef().getName()).isEqualTo("s3");
            assertThat(secret.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("secret");
            assertThat(secret.getValueFrom().getSecretKeyRef().getOptional()).isFalse();
        }
        assertThat(Serialization.asYaml(manifests.inCreationOrder())).doesNotContain("kind: Secret");
    }

    @Test
    void withoutPlacementThePodsAreAsBefore() {
        PodSpec spec = Manifests.desired(Plans.plan("plain", 1), settings).trainerJob().getSpec().getTemplate().getSpec();
        assertThat(spec.getNodeSelector()).isNullOrEmpty();
        assertThat(spec.getTolerations()).isNullOrEmpty();
        assertThat(spec.getAffinity()).isNull();
        assertThat(spec.getVolumes()).noneMatch(v -> v.getName().startsWith("extra-"));
    }

    @Test
    void theOperatorsAllowListDecidesWhatANamespaceMayAskFor() {
        JobPlan plan = Plans.plan(request(), "ml");
        var none = settings.placement();
        assertThat(PlacementAllowList.violations(plan, none)).extracting(v -> v.fields().get(0))
                .containsExactlyInAnyOrder("node_selector.pool", "node_affinity[0]", "tolerations[0]", "volumes[0]");
        assertThat(PlacementAllowList.violations(plan, none)).extracting(Violation::message)
                .allSatisfy(message -> assertThat(message).contains("namespace ml", "paddlejobs.kubernetes.placement."));

        var allowed = Settings.of(KubernetesProperties.class,
                "placement.node-labels.ml", "pool=cpu,zone",
                "placement.tolerations.ml", "dedicated=training:NoSchedule",
                "placement.volumes.ml", "pvc/ctr-data").placement();
        assertThat(PlacementAllowList.violations(plan, allowed)).isEmpty();
        assertThat(PlacementAllowList.violations(Plans.plan(request(), "other"), allowed)).hasSize(4);
    }

    @Test
    void aVolumeMayNotHideTheServicesOwnMounts() {
        JobRequest over = JobRequests.Builder.from(request())
                .volumes(List.of(new JobRequest.Volume("ctr-data", null, KubernetesSite.DATA_PATH))).build();
        var allowed = Settings.of(KubernetesProperties.class, "placement.volumes.ml", "pvc/ctr-data").placement();
        assertThat(PlacementAllowList.violations(Plans.plan(over, "ml"), allowed))
                .filteredOn(v -> v.fields().get(0).equals("volumes[0].mount_path")).singleElement()
                .satisfies(v -> assertThat(v.message()).contains("which the service mounts itself"));
    }

    private static Container main(PodSpec spec) {
        return spec.getContainers().get(0);
    }

    private static String value(Container container, String name) {
        return container.getEnv().stream().filter(v -> v.getName().equals(name)).map(EnvVar::getValue)
                .reduce((first, last) -> last).orElse(null);
    }
}
