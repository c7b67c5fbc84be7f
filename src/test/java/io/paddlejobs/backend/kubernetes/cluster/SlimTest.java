package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.Pods;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlimTest {

    private final JobPlan plan = Plans.plan(Plans.gpuRequest("vision", 2));
    private final Manifests manifests = Manifests.desired(plan, Settings.defaults(KubernetesProperties.class));

    @Test
    void aSlimTrainerJobKeepsWhatStatusAndPlanRecoveryRead() {
        Job full = new JobBuilder(Pods.withCondition(Pods.cancelled(manifests.trainerJob()), "Failed"))
                .editMetadata().withUid("u1").withResourceVersion("7").withCreationTimestamp(Pods.T0)
                .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").build()).endMetadata()
                .editSpec().withSuspend(true).endSpec().build();

        Job slim = Slim.job(full);

        assertThat(slim.getMetadata().getManagedFields()).isEmpty();
        assertThat(slim.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(slim.getMetadata().getAnnotations()).isEqualTo(full.getMetadata().getAnnotations());
        assertThat(slim.getMetadata().getLabels()).isEqualTo(full.getMetadata().getLabels());
        assertThat(slim.getStatus()).isEqualTo(full.getStatus());
        assertThat(slim.getSpec().getSuspend()).isTrue();
        assertThat(slim.getSpec().getTemplate().getSpec().getContainers()).singleElement()
                .satisfies(c -> assertThat(c.getImage()).isEqualTo("example/paddle:gpu"))
                .satisfies(c -> assertThat(c.getEnv()).isEmpty());
        assertThat(slim.getSpec().getTemplate().getSpec().getInitContainers()).isEmpty();
    }

    @Test
    void statusFromSlimObjectsEqualsStatusFromFullOnes() {
        Job job = new JobBuilder(manifests.trainerJob()).editMetadata().withCreationTimestamp(Pods.T0).endMetadata().build();
        var set = new JobBuilder(manifests.pserverJob()).withNewStatus().withActive(2).endStatus().build();
        List<Pod> pods = List.of(Pods.ready(Pods.running(Pods.of("vision", Role.PSERVER, 0))),
                Pods.crashLooping(Pods.of("vision", Role.PSERVER, 1), 1, 3),
                Pods.waiting(Pods.of("vision", Role.TRAINER, 0), "ErrImagePull", "not found"),
                Pods.unschedulable(Pods.of("vision", Role.TRAINER, 1), "0/1 nodes are available"));

        JobStatus full = JobStatusMapper.map(plan, new ObservedJob(job, set, pods));
        JobStatus slim = JobStatusMapper.map(plan, new ObservedJob(Slim.job(job), Slim.job(set),
                pods.stream().map(Slim::pod).toList()));

        assertThat(slim).isEqualTo(full);
        assertThat(PodStates.ready(Slim.pod(pods.get(0)))).as("readiness survives slimming").isTrue();
        assertThat(new ObservedJob(Slim.job(job), Slim.job(set), List.of()).trainersSuspended())
                .as("suspension survives slimming").isTrue();
    }

    @Test
    void aSlimPodKeepsOurLabelsAndItsIndexNotTheJobControllersLabels() {
        Pod full = new PodBuilder(Pods.succeeded(Pods.of("vision", Role.TRAINER, 1))).editMetadata()
                .addToLabels(Map.of("controller-uid", "u1", "batch.kubernetes.io/controller-uid", "u1",
                        "batch.kubernetes.io/job-name", "vision-trainer", JobLabels.COMPLETION_INDEX_ANNOTATION, "1"))
                .endMetadata().build();

        Pod slim = Slim.pod(full);

        assertThat(slim.getMetadata().getLabels()).isEqualTo(JobLabels.selector("vision", Role.TRAINER));
        assertThat(slim.getMetadata().getAnnotations()).containsEntry(JobLabels.COMPLETION_INDEX_ANNOTATION, "1");
    }

    @Test
    void emptyListsAndMapsOfASlimObjectAreTheOneSharedEmptyListAndMap() {
        Job job = Slim.job(manifests.trainerJob());
        Pod pod = Slim.pod(Pods.running(Pods.of("vision", Role.TRAINER, 0)));

        assertThat(job.getAdditionalProperties()).isSameAs(Map.of());
        assertThat(job.getMetadata().getFinalizers()).isSameAs(List.of());
        assertThat(job.getSpec().getTemplate().getSpec().getTolerations()).isSameAs(List.of());
        assertThat(pod.getSpec().getContainers().get(0).getEnv()).isSameAs(List.of());
        assertThat(pod.getStatus().getContainerStatuses().get(0).getState().getRunning().getAdditionalProperties())
                .isSameAs(Map.of());
        assertThat(pod.getSpec().getContainers()).as("lists with items stay").hasSize(1);
    }

    @Test
    void wordsEveryPodRepeatsAreHeldOnce() {
        Pod one = Slim.pod(Serialization.clone(Pods.ready(Pods.running(Pods.of("a", Role.PSERVER, 0)))));
        Pod other = Slim.pod(Serialization.clone(Pods.ready(Pods.running(Pods.of("b", Role.PSERVER, 0)))));

        assertThat(one.getStatus().getPhase()).isEqualTo("Running").isSameAs(other.getStatus().getPhase());
        assertThat(one.getStatus().getConditions().get(0).getType()).isSameAs(other.getStatus().getConditions().get(0).getType());
        assertThat(one.getSpec().getContainers().get(0).getImage()).isSameAs(other.getSpec().getContainers().get(0).getImage());
    }
}
