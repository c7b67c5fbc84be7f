package io.paddlejobs.backend.kubernetes.lifecycle;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.KubernetesRuntime;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.Pods;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lifecycle's rules, from objects written by hand and a fixed clock. */
class JobLifecycleTest {

    private final KubernetesProperties settings = Settings.defaults(KubernetesProperties.class);
    private final JobPlan plan = Plans.plan("mnist", 2);
    private final Manifests manifests = Manifests.desired(plan, settings);
    private final Job trainers = new JobBuilder(manifests.trainerJob()).editMetadata().withCreationTimestamp(Pods.T0)
            .endMetadata().build();
    private final Instant created = Instant.parse(Pods.T0);

    private List<JobLifecycle.Action> next(Job trainerJob, Job pserverJob, Instant now, io.fabric8.kubernetes.api.model.Pod... pods) {
        var observed = new ObservedJob(trainerJob, pserverJob, List.of(pods));
        return JobLifecycle.next(plan, observed, JobStatusMapper.map(plan, observed), now, settings,
                KubernetesRuntime.DEFAULT_BACKOFF);
    }

    private static io.fabric8.kubernetes.api.model.Pod pserver(int i) {
        return Pods.of("mnist", Role.PSERVER, i);
    }

    @Test
    void trainersAreReleasedOnlyWhenEveryPserverIsReady() {
        Instant now = created.plusSeconds(60);
        assertThat(next(trainers, manifests.pserverJob(), now, Pods.ready(Pods.running(pserver(0))),
                Pods.running(pserver(1)))).isEmpty();
        assertThat(next(trainers, manifests.pserverJob(), now, Pods.ready(Pods.running(pserver(0))),
                Pods.ready(Pods.running(pserver(1))))).containsExactly(new JobLifecycle.ReleaseTrainers());
    }

    @Test
    void aFailedPserverFailsTheJobWithItsReason() {
        var actions = next(trainers, manifests.pserverJob(), created.plusSeconds(60),
                Pods.failed(pserver(0), 139, "Error"), Pods.ready(Pods.running(pserver(1))));
        assertThat(actions).singleElement().isInstanceOfSatisfying(JobLifecycle.Fail.class, fail ->
                assertThat(fail.message()).startsWith("pserver-0 failed: killed by signal 11"));
    }

    @Test
    void aJobPendingPastThePendingTimeoutFailsWithTheLastReason() {
        var stuck = Pods.unschedulable(pserver(0), "0/3 nodes are available: 3 Insufficient cpu.");
        assertThat(next(trainers, manifests.pserverJob(), created.plus(Duration.ofMinutes(29)), stuck)).isEmpty();
        var actions = next(trainers, manifests.pserverJob(), created.plus(Duration.ofMinutes(30)), stuck);
        assertThat(actions).singleElement().isInstanceOfSatisfying(JobLifecycle.Fail.class, fail -> {
            assertThat(fail.reason()).isEqualTo("PendingTimeout");
            assertThat(fail.message()).contains("30 min", "pserver-0: cannot be scheduled", "Insufficient cpu");
        });
    }

    @Test
    void aCancelledJobThatSomeoneResumesIsSuspendedAgainAndRemovedAfterTheTtl() {
        Job resumed = new JobBuilder(Pods.cancelled(trainers)).editSpec().withSuspend(false).endSpec().build();
        Job stopped = new JobBuilder(manifests.pserverJob()).editSpec().withSuspend(true).endSpec().build();
        Instant cancelled = Instant.parse(Pods.T1);

        assertThat(next(resumed, stopped, cancelled.plusSeconds(10))).containsExactly(new JobLifecycle.StopTrainers());
        Job suspended = new JobBuilder(resumed).editSpec().withSuspend(true).endSpec().build();
        assertThat(next(suspended, stopped, cancelled.plusSeconds(3599))).isEmpty();
        assertThat(next(suspended, stopped, cancelled.plusSeconds(3600))).containsExactly(new JobLifecycle.Remove());
    }

    @Test
    void aJobTheJobControllerFinishedOnlyHasItsPserversStopped() {
        Job complete = Pods.withCondition(trainers, "Complete");
        assertThat(next(complete, manifests.pserverJob(), created.plus(Duration.ofDays(2))))
                .containsExactly(new JobLifecycle.StopPservers());
        Job stopped = new JobBuilder(manifests.pserverJob()).editSpec().withSuspend(true).endSpec().build();
        assertThat(next(complete, stopped, created.plus(Duration.ofDays(2)))).as("the TTL controller removes it").isEmpty();
    }

    @Test
    void aFailedTrainerIsLeftToTheJobControllerNotFailedTwice() {
        var actions = next(new JobBuilder(trainers).editSpec().withSuspend(false).endSpec().build(),
                manifests.pserverJob(), created.plusSeconds(60), Pods.failed(Pods.of("mnist", Role.TRAINER, 0), 1, "Error"));
        assertThat(actions).containsExactly(new JobLifecycle.StopPservers());
    }

    @Test
    void aJobWhoseMaxRunTimePassedSaysSoInWords() {
        Job deadline = new JobBuilder(trainers).editSpec().withActiveDeadlineSeconds(60L).endSpec().editOrNewStatus()
                .addNewCondition().withType("Failed").withStatus("True").withReason("DeadlineExceeded")
                .withLastTransitionTime(Pods.T1).endCondition().endStatus().build();
        var status = JobStatusMapper.map(plan, new ObservedJob(deadline, manifests.pserverJob(), List.of()));
        assertThat(status.reason()).isEqualTo("MaxRunTimeExceeded");
        assertThat(status.message()).contains("max_run_time (60 s)");
        assertThat(Map.of("phase", status.phase().name())).containsEntry("phase", "FAILED");
    }
}
