package io.paddlejobs.backend.kubernetes.lifecycle;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.KubernetesRuntime;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.Pods;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.status.AttemptState;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.attempt.FailureCause;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The restart rules on Kubernetes, from objects written by hand and a fixed clock; the real cluster is RealClusterRestartsTest's. */
class RestartsTest {

    private final KubernetesProperties settings = Settings.defaults(KubernetesProperties.class);
    private final JobPlan plan = Plans.plan(JobRequests.named("mnist", "python train.py").trainers(1).maxRestarts(2)
            .build());
    private final Job trainers = new JobBuilder(Manifests.desired(plan, settings).trainerJob()).editMetadata()
            .withCreationTimestamp(Pods.T0).withResourceVersion("7").endMetadata().build();
    private final Instant now = Instant.parse(Pods.T1).plusSeconds(1);

    private ObservedJob observed(Job trainerJob, Pod... pods) {
        return new ObservedJob(trainerJob, null, List.of(pods));
    }

    private List<JobLifecycle.Action> next(ObservedJob job, Instant at) {
        return JobLifecycle.next(plan, job, JobStatusMapper.map(plan, job), at, settings, KubernetesRuntime.DEFAULT_BACKOFF);
    }

    private Pod trainer(int exitCode, String reason) {
        return Pods.failed(Pods.of("mnist", Role.TRAINER, 0), exitCode, reason);
    }

    @Test
    void aFailedAttemptWithRestartsLeftIsMadeAgainAfterTheBackoffRecordingTheAttemptThatEnded() {
        var job = observed(Pods.withCondition(trainers, "Failed"), trainer(1, "Error"));

        var restart = (JobLifecycle.Restart) next(job, now).get(0);

        AttemptState nextAttempt = restart.next();
        assertThat(nextAttempt.number()).isEqualTo(1);
        assertThat(nextAttempt.restartAt()).isEqualTo(now.plusSeconds(10));
        assertThat(nextAttempt.restartMessage()).startsWith("trainer-0 failed: exited with code 1")
                .endsWith("; restart 1 of 2 in 10 s");
        assertThat(nextAttempt.createdAt()).isEqualTo(Instant.parse(Pods.T0));
        assertThat(nextAttempt.ended()).singleElement().satisfies(a -> {
            assertThat(a.number()).isZero();
            assertThat(a.reason()).isEqualTo("ReplicaFailed");
            assertThat(a.finishedAt()).isEqualTo(Instant.parse(Pods.T1));
        });
    }

    @Test
    void theStatusSaysRestartingFromTheFailureOnNeverAFailedThatIsTakenBack() {
        var job = observed(Pods.withCondition(trainers, "Failed"), trainer(1, "Error"));
        JobStatus shown = Restarts.shown(plan, job, JobStatusMapper.map(plan, job), now, KubernetesRuntime.DEFAULT_BACKOFF);
        assertThat(shown.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(shown.reason()).isEqualTo(RestartDecision.RESTARTING);
        assertThat(shown.restarts()).isEqualTo(1);
        assertThat(shown.finishedAt()).isNull();
    }

    @Test
    void aJobWithoutRestartsOrPastItsMaxRunTimeEndsAsItAlwaysDid() {
        JobPlan once = Plans.plan("mnist", 1);
        var failed = new ObservedJob(Pods.withCondition(new JobBuilder(Manifests.desired(once, settings).trainerJob())
                .editMetadata().withCreationTimestamp(Pods.T0).endMetadata().build(), "Failed"), null,
                List.of(trainer(1, "Error")));
        assertThat(Restarts.after(once, failed, JobStatusMapper.map(once, failed), now, KubernetesRuntime.DEFAULT_BACKOFF))
                .isEmpty();

        JobStatus overrun = JobStatusMapper.map(plan, observed(Pods.withCondition(trainers, "Failed")));
        JobStatus asOverrun = new JobStatus(JobPhase.FAILED, "MaxRunTimeExceeded", "ran longer than max_run_time",
                overrun.createdAt(), overrun.startedAt(), overrun.finishedAt(), null, overrun.pservers(),
                overrun.trainers(), overrun.replicas());
        assertThat(Restarts.after(plan, observed(trainers), asOverrun, now, KubernetesRuntime.DEFAULT_BACKOFF)).isEmpty();
    }

    @Test
    void theProgramsOwnExitIsToldFromWhatCameFromOutside() {
        ReplicaStatus exit1 = replica(1);
        assertThat(cause("ReplicaFailed", exit1)).isEqualTo(RestartOn.Cause.EXIT);
        assertThat(cause("ReplicaFailed", replica(139))).as("a crash by SIGSEGV").isEqualTo(RestartOn.Cause.EXIT);
        assertThat(cause("ReplicaFailed", replica(137))).isEqualTo(RestartOn.Cause.INFRASTRUCTURE);
        assertThat(cause("OOMKilled", replica(137))).isEqualTo(RestartOn.Cause.INFRASTRUCTURE);
        assertThat(cause("Evicted", null)).isEqualTo(RestartOn.Cause.INFRASTRUCTURE);
        assertThat(cause("BackoffLimitExceeded", null)).as("a pod deleted or lost with its node")
                .isEqualTo(RestartOn.Cause.INFRASTRUCTURE);
        assertThat(cause("PserversUnreachable", null)).isEqualTo(RestartOn.Cause.INFRASTRUCTURE);
        assertThat(Restarts.ending("ReplicaFailed", "trainer-0 failed", replica(137)).exitCode())
                .as("the failed replica's code travels with the ending").isEqualTo(137);
        assertThat(FailureCause.of(Restarts.ending("MaxRunTimeExceeded", "ran longer", null)))
                .as("an overrun of max_run_time is never retried").isEmpty();
    }

    private static RestartOn.Cause cause(String reason, ReplicaStatus failed) {
        return FailureCause.of(Restarts.ending(reason, "a failure", failed)).orElseThrow();
    }

    @Test
    void aRestartedJobWaitsOutItsBackoffThenStartsTheAttemptAndKeepsItsCount() {
        Attempt first = new Attempt(0, Instant.parse(Pods.T0), Instant.parse(Pods.T1), "ReplicaFailed", "trainer-0 failed");
        AttemptState waiting = AttemptState.FIRST.next(first, Instant.parse(Pods.T0), now.plusSeconds(10), "restart 1 of 2 in 10 s");
        Manifests attempt = Manifests.forAttempt(plan, settings, DataClaim.assumed(settings.dataClaim()), null, waiting);
        Job made = new JobBuilder(attempt.trainerJob()).editMetadata().withCreationTimestamp(Pods.T1).endMetadata().build();

        assertThat(AttemptState.of(made)).isEqualTo(waiting);
        assertThat(made.getSpec().getSuspend()).isTrue();
        assertThat(made.getSpec().getTemplate().getMetadata().getLabels()).containsEntry(JobLabels.ATTEMPT, "1");
        assertThat(made.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo(PaddleEnv.RESTART_COUNT + "=1"));

        var job = observed(made);
        assertThat(next(job, now.plusSeconds(9))).isEmpty();
        assertThat(next(job, now.plusSeconds(10))).containsExactly(new JobLifecycle.StartAttempt());
        JobStatus status = JobStatusMapper.map(plan, job);
        assertThat(status.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(status.reason()).isEqualTo(RestartDecision.RESTARTING);
        assertThat(status.message()).isEqualTo("restart 1 of 2 in 10 s");
        assertThat(status.restarts()).isEqualTo(1);
        assertThat(status.attempts()).containsExactly(first);
        assertThat(status.createdAt()).isEqualTo(Instant.parse(Pods.T0));
    }

    @Test
    void aPodOfAnEarlierAttemptIsNotTheCurrentAttemptsReplica() {
        AttemptState second = AttemptState.FIRST.next(new Attempt(0, null, Instant.parse(Pods.T1), "ReplicaFailed", "x"),
                Instant.parse(Pods.T0), null, null);
        Job made = Manifests.forAttempt(plan, settings, DataClaim.assumed(settings.dataClaim()), null, second).trainerJob();
        Pod old = Pods.running(Pods.of("mnist", Role.TRAINER, 0));
        Pod current = new PodBuilder(old).editMetadata().addToLabels(JobLabels.ATTEMPT, "1").endMetadata().build();

        assertThat(observed(made, old).pods()).isEmpty();
        assertThat(observed(made, old, current).pods()).containsExactly(current);
    }

    private static ReplicaStatus replica(int exitCode) {
        return PodStates.status("trainer-0", Role.TRAINER, 0, "mnist-trainer-0.mnist",
                io.paddlejobs.job.ReplicaState.FAILED, 0, exitCode, "failed", null, null);
    }
}
