package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.cluster.SpecCodec;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestsTest {

    private final KubernetesProperties settings = Settings.defaults(KubernetesProperties.class);
    private final JobPlan plan = Plans.plan(Plans.gpuRequest("vision", 2));
    private final Manifests manifests = Manifests.desired(plan, settings);

    @Test
    void objectsAreCreatedTrainerJobFirstBecauseItOwnsTheOthers() {
        assertThat(manifests.inCreationOrder()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
                .containsExactly("Job/vision-trainer", "Service/vision", "Job/vision-pserver");
        assertThat(manifests.inCreationOrder()).allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("ml"));
    }

    @Test
    void aCollectiveJobIsItsTrainerJobAndServiceWithNoPserversToWaitFor() {
        var collective = Manifests.desired(Plans.plan(Plans.collectiveRequest("allreduce", 2)), settings);
        assertThat(collective.inCreationOrder()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
                .containsExactly("Job/allreduce-trainer", "Service/allreduce");
        assertThat(collective.pserverJob()).isNull();
        assertThat(collective.trainerJob().getSpec().getCompletions()).isEqualTo(2);
        assertThat(collective.trainerJob().getSpec().getTemplate().getSpec().getInitContainers()).isEmpty();
    }

    @Test
    void serviceIsHeadlessSelectsTheJobsPodsAndPublishesThemBeforeTheyAreReady() {
        var spec = manifests.service().getSpec();
        assertThat(spec.getClusterIP()).isEqualTo("None");
        assertThat(spec.getPublishNotReadyAddresses()).isTrue();
        assertThat(spec.getSelector()).isEqualTo(Map.of(
                "app.kubernetes.io/managed-by", "paddle-jobs", "app.kubernetes.io/name", "vision"));
        assertThat(spec.getPorts()).extracting(ServicePort::getPort).containsExactly(7164, 7165);
    }

    @Test
    void serviceSelectorMatchesThePodsOfBothRoles() {
        var selector = manifests.service().getSpec().getSelector();
        assertThat(manifests.pserverJob().getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(selector);
        assertThat(manifests.trainerJob().getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(selector);
    }

    @Test
    void pserversAreAnIndexedJobThatNeverBringsAPserverBack() {
        var spec = manifests.pserverJob().getSpec();
        assertThat(spec.getCompletionMode()).isEqualTo("Indexed");
        assertThat(spec.getCompletions()).isEqualTo(2);
        assertThat(spec.getParallelism()).isEqualTo(2);
        assertThat(spec.getBackoffLimit()).isZero();
        assertThat(spec.getSuspend()).as("pservers start at once").isNull();
        assertThat(spec.getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(spec.getTemplate().getSpec().getSubdomain()).isEqualTo("vision");
        assertThat(spec.getTemplate().getMetadata().getLabels()).containsEntry("paddlejobs.io/role", "pserver");
        assertThat(ObjectNames.podHostname("vision", io.paddlejobs.planning.Role.PSERVER, 1))
                .as("the Indexed Job's hostname, as the planner wrote it into the lists").isEqualTo("vision-pserver-1");
    }

    @Test
    void aPserverIsReadyOnceItsEndpointAcceptsConnections() {
        var probe = manifests.pserverJob().getSpec().getTemplate().getSpec().getContainers().get(0).getReadinessProbe();
        assertThat(probe.getTcpSocket().getPort().getIntVal()).isEqualTo(7164);
        assertThat(manifests.trainerJob().getSpec().getTemplate().getSpec().getContainers().get(0).getReadinessProbe())
                .isNull();
    }

    @Test
    void maxRunTimeIsTheTrainerJobsActiveDeadlineAndOmittedWhenNotAsked() {
        var r = Plans.request("vision", 1);
        var limited = JobRequests.spec("name=" + r.name() + " num_cpus=1 max_run_time=1h30m")
                .entryPoint(r.code().entryPoint()).build();
        assertThat(Manifests.desired(Plans.plan(limited), settings).trainerJob().getSpec().getActiveDeadlineSeconds())
                .isEqualTo(5400L);
        assertThat(manifests.trainerJob().getSpec().getActiveDeadlineSeconds()).isNull();
    }

    @Test
    void trainersAreCreatedSuspendedUntilThePserversAreReady() {
        assertThat(manifests.trainerJob().getSpec().getSuspend()).isTrue();
    }

    @Test
    void trainerJobIsIndexedWithOneCompletionPerTrainerAndNoRetries() {
        var spec = manifests.trainerJob().getSpec();
        assertThat(spec.getCompletionMode()).isEqualTo("Indexed");
        assertThat(spec.getCompletions()).isEqualTo(2);
        assertThat(spec.getParallelism()).isEqualTo(2);
        assertThat(spec.getBackoffLimit()).isZero();
        assertThat(spec.getTtlSecondsAfterFinished()).isEqualTo(3600);
        assertThat(spec.getTemplate().getSpec().getSubdomain()).isEqualTo("vision");
        assertThat(spec.getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(spec.getTemplate().getMetadata().getLabels()).containsEntry("paddlejobs.io/role", "trainer");
    }

    @Test
    void trainersWaitForPserversAndPserversOnlyForTheirOwnName() {
        assertThat(manifests.trainerJob().getSpec().getTemplate().getSpec().getInitContainers())
                .extracting(c -> c.getName()).containsExactly("wait-for-pservers");
        assertThat(manifests.pserverJob().getSpec().getTemplate().getSpec().getInitContainers())
                .extracting(c -> c.getName()).containsExactly("wait-for-own-name");
    }

    @Test
    void trainerJobCarriesTheSpecItWasPlannedFrom() {
        String spec = manifests.trainerJob().getMetadata().getAnnotations().get(JobLabels.SPEC_ANNOTATION);
        assertThat(SpecCodec.read(spec)).isEqualTo(plan.spec());
    }

    @Test
    void everyObjectCarriesTheUserLabelsButOursWin() {
        var request = Plans.gpuRequest("vision", 1);
        var sneaky = JobRequests.named("vision", request.code().entryPoint()).numGpus(1)
                .labels(Map.of("team", "vision", "app.kubernetes.io/name", "other", "paddlejobs.io/role", "pserver")).build();
        var objects = Manifests.desired(Plans.plan(sneaky), settings);
        assertThat(objects.inCreationOrder()).allSatisfy(o -> assertThat(o.getMetadata().getLabels())
                .containsEntry("team", "vision").containsEntry("app.kubernetes.io/name", "vision"));
        assertThat(objects.trainerJob().getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("paddlejobs.io/role", "trainer").containsEntry("team", "vision");
    }

    @Test
    void everyPodIsRestrictedAndHasItsPlannedResourcesAndData() {
        for (PodTemplateSpec template : templates()) {
            var spec = template.getSpec();
            assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(spec.getAutomountServiceAccountToken()).isFalse();
            assertThat(spec.getContainers()).singleElement().satisfies(main -> {
                assertThat(main.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
                assertThat(main.getResources().getLimits()).containsKeys("cpu", "memory");
                assertThat(main.getVolumeMounts()).extracting(m -> m.getMountPath()).contains("/data", "/home/paddle");
            });
            assertThat(spec.getInitContainers()).allSatisfy(init ->
                    assertThat(init.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL"));
        }
    }

    @Test
    void onlyTrainersGetTheJobsGpus() {
        assertThat(manifests.trainerJob().getSpec().getTemplate().getSpec().getContainers().get(0).getResources()
                .getLimits()).containsEntry("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("1"));
        assertThat(manifests.pserverJob().getSpec().getTemplate().getSpec().getContainers().get(0).getResources()
                .getLimits()).doesNotContainKey("nvidia.com/gpu");
    }

    @Test
    void nothingGrantsTheHostAnIdentityOrANode() {
        String json = Serialization.asJson(manifests.inCreationOrder());
        assertThat(json).doesNotContain("hostPath", "privileged", "hostNetwork", "hostPID", "hostIPC", "hostPort",
                "serviceAccountName", "serviceAccount\"", "nodeName", "nodeSelector", "\"add\"");
    }

    @Test
    void dryRunMapsAreTheObjectsAsJson() {
        List<Map<String, Object>> maps = manifests.asMaps();
        assertThat(maps).extracting(m -> m.get("kind")).containsExactly("Job", "Service", "Job");
        assertThat(maps.get(0)).containsEntry("apiVersion", "batch/v1");
        assertThat(Serialization.unmarshal(Serialization.asJson(maps.get(2)),
                io.fabric8.kubernetes.api.model.batch.v1.Job.class)).isEqualTo(manifests.pserverJob());
    }

    @Test
    void ownedObjectsReferToTheCreatedTrainerJobWithoutChangingTheDesiredOne() {
        var created = new JobBuilder(manifests.trainerJob()).editMetadata().withUid("uid-1").endMetadata().build();
        var owned = Manifests.ownedBy(created, manifests.service());
        assertThat(owned.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getUid()).isEqualTo("uid-1");
            assertThat(ref.getKind()).isEqualTo("Job");
            assertThat(ref.getApiVersion()).isEqualTo("batch/v1");
            assertThat(ref.getName()).isEqualTo("vision-trainer");
        });
        assertThat(manifests.service().getMetadata().getOwnerReferences()).isEmpty();
    }

    private List<PodTemplateSpec> templates() {
        return List.of(manifests.pserverJob().getSpec().getTemplate(), manifests.trainerJob().getSpec().getTemplate());
    }
}
