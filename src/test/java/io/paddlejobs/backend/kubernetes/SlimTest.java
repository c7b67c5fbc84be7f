package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.util.List;
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
}
