package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static io.paddlejobs.backend.kubernetes.ClusterReads.phase;
import static io.paddlejobs.backend.kubernetes.ClusterReads.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Whole-job restarts with the real Job controller, garbage collector, scheduler and kwok's kubelets:
 * a job of one pserver and one trainer whose attempt fails is made anew, as often as its
 * {@code max_restarts} allow and for the failures its {@code restart_on} names; a cancel during the
 * backoff ends it; a replica of the service started in the middle of a backoff carries on with the
 * count. A quick backend (backoff 1 s) and a slow one (backoff 4 s, for what happens during it).
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterRestartsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String IMAGE = "paddlepaddle/paddle:2.6.1";
    private static final RestartBackoff QUICK = new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(2));
    private static final RestartBackoff SLOW = new RestartBackoff(Duration.ofSeconds(4), Duration.ofSeconds(4));

    private static ControlPlane plane;
    private static KubernetesClient admin;
    private static ClusterReads reads;
    private static MockCluster.Backend quick;
    private static MockCluster.Backend slow;
    private static String once;
    private static String always;
    private static String infrastructure;
    private static String cancel;
    private static String claim;
    private static String podLogs;

    @BeforeAll
    static void start() {
        plane = RealCluster.plane();
        admin = plane.admin();
        reads = new ClusterReads(admin);
        claim = Settings.defaults(KubernetesProperties.class).dataClaim();
        once = RestrictedNamespaces.create(admin, "once", claim);
        always = RestrictedNamespaces.create(admin, "always", claim);
        infrastructure = RestrictedNamespaces.create(admin, "infra", claim);
        cancel = RestrictedNamespaces.create(admin, "backoff", claim);
        podLogs = RestrictedNamespaces.named(admin, ControlPlane.POD_LOGS_NAMESPACE, claim);
        quick = RealBackends.start(plane, plane.adminToken(),
                MockCluster.settings(List.of(once, always, infrastructure, podLogs), "resync", "1s"), QUICK);
        slow = RealBackends.start(plane, plane.adminToken(), MockCluster.settings(List.of(cancel), "resync", "1s"), SLOW);
        await().atMost(DEADLINE).until(() -> quick.cache().synced() && slow.cache().synced());
    }

    @AfterAll
    static void stop() {
        for (MockCluster.Backend backend : new MockCluster.Backend[] {quick, slow}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    @Test
    void aTrainerThatFailsOnceIsRestartedWithTheNextRestartCountAndTheJobSucceeds() {
        JobKey key = new JobKey(once, "flaky");
        quick.jobs().submit(Plans.plan(restarting("flaky", 2, null, FakeKubelet.trainersFailTheFirstAttempt()), once));

        // What the issue asks to be measured, as this test sees it (polling every 20 ms): from the failure,
        // as the service first shows it, to a trainer of the next attempt running.
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
                .until(() -> RestartDecision.RESTARTING.equals(reason(quick, key)));
        long failedAt = System.nanoTime();
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> attemptOneRunning(once, "flaky"));
        System.out.printf("restart: failure seen to next attempt's trainer running: %d ms (backoff %d ms)%n",
                Duration.ofNanos(System.nanoTime() - failedAt).toMillis(), QUICK.before(1).toMillis());
        await().atMost(DEADLINE).until(() -> phase(quick, key) == JobPhase.SUCCEEDED);

        JobStatus status = quick.jobs().find(key).orElseThrow().status();
        assertThat(status.restarts()).isEqualTo(1);
        assertThat(status.attempts()).extracting(Attempt::number).containsExactly(0, 1);
        Attempt failed = status.attempts().get(0);
        assertThat(failed.message()).startsWith("trainer-0 failed: exited with code 1");
        assertThat(status.attempts().get(1).reason()).isEqualTo(JobStatus.COMPLETED);
        assertThat(status.startedAt()).isEqualTo(failed.startedAt());
        assertThat(env(reads.trainerJob(once, "flaky"))).containsEntry(PaddleEnv.RESTART_COUNT, "1")
                .containsEntry(PaddleEnv.CHECKPOINT_DIR, "/data/checkpoints/flaky");
        // The failed attempt's pods went with its trainer Job.
        await().atMost(DEADLINE).until(() -> reads.pods(once, "flaky", Role.TRAINER).stream()
                .allMatch(p -> "1".equals(p.getMetadata().getLabels().get(JobLabels.ATTEMPT))));
        // The cluster's own times are whole seconds: the next attempt started no sooner than the backoff allows.
        Duration toNext = Duration.between(failed.finishedAt(), status.attempts().get(1).startedAt());
        assertThat(toNext).isGreaterThanOrEqualTo(QUICK.before(1).minusMillis(1000));
    }

    @Test
    void aTrainerThatAlwaysFailsFailsAfterExactlyMaxRestartsSayingSo() {
        JobKey key = new JobKey(always, "broken");
        quick.jobs().submit(Plans.plan(restarting("broken", 2, null, FakeKubelet.trainersExitWith(3)), always));

        await().atMost(DEADLINE).until(() -> phase(quick, key) == JobPhase.FAILED);

        JobStatus status = quick.jobs().find(key).orElseThrow().status();
        assertThat(status.restarts()).isEqualTo(2);
        assertThat(status.message()).startsWith("failed after 2 restarts: trainer-0 failed: exited with code 3");
        assertThat(status.attempts()).extracting(Attempt::number).containsExactly(0, 1, 2);
        assertThat(status.attempts()).allSatisfy(a -> assertThat(a.finishedAt()).isNotNull());
    }

    @Test
    void restartOnInfrastructureDoesNotRetryTheProgramsOwnExit() {
        JobKey key = new JobKey(infrastructure, "exits");
        quick.jobs().submit(Plans.plan(restarting("exits", 2, RestartOn.parse("infrastructure"),
                FakeKubelet.trainersExitWith(1)), infrastructure));

        await().atMost(DEADLINE).until(() -> phase(quick, key) == JobPhase.FAILED);

        JobStatus status = quick.jobs().find(key).orElseThrow().status();
        assertThat(status.restarts()).isZero();
        assertThat(status.message()).startsWith("trainer-0 failed: exited with code 1");
        assertThat(reads.trainerJob(infrastructure, "exits").getMetadata().getAnnotations())
                .doesNotContainKey(JobLabels.ATTEMPT);
    }

    @Test
    void restartOnInfrastructureRetriesATrainerPodDeletedUnderTheJob() {
        JobKey key = new JobKey(infrastructure, "deleted");
        quick.jobs().submit(Plans.plan(restarting("deleted", 1, RestartOn.parse("infrastructure"),
                FakeKubelet.trainersKeepRunning()), infrastructure));
        await().atMost(DEADLINE).until(() -> running(reads.pods(infrastructure, "deleted", Role.TRAINER)) == 1);

        admin.resourceList(reads.pods(infrastructure, "deleted", Role.TRAINER)).delete();

        await().atMost(DEADLINE).until(() -> attemptOneRunning(infrastructure, "deleted"));
        JobStatus status = quick.jobs().find(key).orElseThrow().status();
        assertThat(status.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(status.restarts()).isEqualTo(1);
        assertThat(status.attempts().get(0).message()).contains("deleted");
        quick.jobs().cancel(key);
        await().atMost(DEADLINE).until(() -> phase(quick, key) == JobPhase.CANCELLED);
    }

    @Test
    void aCancelDuringTheBackoffCancelsTheJobAndNoFurtherAttemptStarts() {
        JobKey key = new JobKey(cancel, "waiting");
        slow.jobs().submit(Plans.plan(restarting("waiting", 3, null, FakeKubelet.trainersExitWith(1)), cancel));
        await().atMost(DEADLINE).until(() -> waitsForAttempt(cancel, "waiting", 1)
                && slow.jobs().find(key).map(j -> j.status().restarts() == 1).orElse(false));
        JobStatus restarting = slow.jobs().find(key).orElseThrow().status();
        assertThat(restarting.phase()).isEqualTo(JobPhase.RUNNING);
        assertThat(restarting.reason()).isEqualTo(RestartDecision.RESTARTING);
        assertThat(restarting.message()).startsWith("trainer-0 failed: exited with code 1").endsWith("; restart 1 of 3 in 4 s");

        assertThat(slow.jobs().cancel(key).orElseThrow().status().phase()).isEqualTo(JobPhase.CANCELLED);

        // Past the backoff, with resyncs every second: still cancelled, and no pod of a next attempt.
        await().during(SLOW.before(1).plusSeconds(3)).atMost(DEADLINE).until(() ->
                phase(slow, key) == JobPhase.CANCELLED
                        && admin.pods().inNamespace(cancel).withLabel(JobLabels.ATTEMPT).list().getItems().isEmpty()
                        && admin.batch().v1().jobs().inNamespace(cancel).withName(ObjectNames.pserverJob("waiting")).get() == null);
        assertThat(slow.jobs().find(key).orElseThrow().status().restarts()).isEqualTo(1);
    }

    @Test
    void aServiceStartedDuringTheBackoffKeepsTheCountAndStartsTheAttemptOnce() {
        String ns = RestrictedNamespaces.create(admin, "handover", claim);
        JobKey key = new JobKey(ns, "handed");
        var settings = MockCluster.settings(List.of(ns), "resync", "1s");
        var before = RealBackends.start(plane, plane.adminToken(), settings, SLOW);
        try {
            await().atMost(DEADLINE).until(() -> before.cache().synced());
            before.jobs().submit(Plans.plan(restarting("handed", 2, null, FakeKubelet.trainersFailTheFirstAttempt()), ns));
            await().atMost(DEADLINE).until(() -> waitsForAttempt(ns, "handed", 1)
                    && RestartDecision.RESTARTING.equals(reason(before, key)));
        } finally {
            before.close();
        }

        var after = RealBackends.start(plane, plane.adminToken(), settings, SLOW);
        try {
            await().atMost(DEADLINE).until(() -> phase(after, key) == JobPhase.SUCCEEDED);
            JobStatus status = after.jobs().find(key).orElseThrow().status();
            assertThat(status.restarts()).isEqualTo(1);
            assertThat(status.attempts()).extracting(Attempt::number).containsExactly(0, 1);
            // One next attempt: one trainer pod of it (the pservers are stopped once the trainers are done).
            assertThat(admin.pods().inNamespace(ns).withLabel(JobLabels.ATTEMPT, "1").withLabel(JobLabels.ROLE, "trainer")
                    .list().getItems()).hasSize(1);
            assertThat(admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob("handed")).get()
                    .getMetadata().getAnnotations()).containsEntry(JobLabels.ATTEMPT, "1");
        } finally {
            after.close();
        }
    }

    /**
     * The crash a restart was for stays readable once the failed attempt's pods are gone: the restart read each
     * replica's log through the API server (kwok serves the file {@link ControlPlane#podLogFile} as every pod's
     * log in its namespace) and carried its end to the next attempt's trainer Job.
     */
    @Test
    void theCrashARestartWasForStaysReadableAfterItsPodsAreGone() throws Exception {
        JobKey key = new JobKey(podLogs, "crashed");
        Files.writeString(plane.podLogFile(), ControlPlane.criLines("step 1 loss 0.9", "Traceback (most recent call last):",
                "RuntimeError: NCCL error: unhandled system error"));
        quick.jobs().submit(Plans.plan(restarting("crashed", 1, null, FakeKubelet.trainersFailTheFirstAttempt()), podLogs));
        // Attempt 1's trainer Job made: attempt 0's logs were read before its pods were deleted.
        await().atMost(DEADLINE).until(() -> waitsForAttempt(podLogs, "crashed", 1) || attemptOneRunning(podLogs, "crashed"));
        Files.writeString(plane.podLogFile(), ControlPlane.criLines("attempt 1 ran"));
        await().atMost(DEADLINE).until(() -> phase(quick, key) == JobPhase.SUCCEEDED);
        await().atMost(DEADLINE).until(() -> reads.pods(podLogs, "crashed", Role.TRAINER).stream()
                .allMatch(p -> "1".equals(p.getMetadata().getLabels().get(JobLabels.ATTEMPT))));

        assertThat(earlierLog(key, Role.TRAINER, 0, null)).isEqualTo("step 1 loss 0.9\nTraceback (most recent call last):\n"
                + "RuntimeError: NCCL error: unhandled system error\n");
        assertThat(earlierLog(key, Role.TRAINER, 0, 1)).isEqualTo("RuntimeError: NCCL error: unhandled system error\n");
        assertThat(earlierLog(key, Role.PSERVER, 0, null)).contains("Traceback");
        var current = new ByteArrayOutputStream();
        assertThat(quick.jobs().writeLogs(key, Role.TRAINER, 0, null, false, current)).isTrue();
        assertThat(current.toString(StandardCharsets.UTF_8)).isEqualTo("attempt 1 ran\n");
        assertThat(quick.jobs().keepsEarlierAttemptLogs()).isTrue();
    }

    private static String earlierLog(JobKey key, Role role, int attempt, Integer tail) throws Exception {
        var out = new ByteArrayOutputStream();
        assertThat(quick.jobs().writeEarlierLog(key, role, 0, attempt, tail, out)).isTrue();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static JobRequest restarting(String name, int maxRestarts, RestartOn on, Map<String, String> labels) {
        return JobRequests.Builder.from(RealBackends.request(name, 1, IMAGE, labels)).maxRestarts(maxRestarts)
                .restartOn(on).build();
    }

    private boolean attemptOneRunning(String ns, String job) {
        List<Pod> pods = reads.pods(ns, job, Role.TRAINER).stream()
                .filter(p -> "1".equals(p.getMetadata().getLabels().get(JobLabels.ATTEMPT))).toList();
        return running(pods) == 1;
    }

    /** Whether the job's next attempt is made and waits out its backoff, as the cluster holds it. */
    private static boolean waitsForAttempt(String ns, String job, int attempt) {
        var trainers = reads.trainerJob(ns, job);
        var annotations = trainers == null ? null : trainers.getMetadata().getAnnotations();
        return annotations != null && Integer.toString(attempt).equals(annotations.get(JobLabels.ATTEMPT))
                && annotations.containsKey(JobLabels.RESTART_AT_ANNOTATION);
    }

    private static String reason(MockCluster.Backend backend, JobKey key) {
        return backend.jobs().find(key).map(j -> j.status().reason()).orElse(null);
    }

    private static Map<String, String> env(io.fabric8.kubernetes.api.model.batch.v1.Job job) {
        return job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getValue() != null).collect(java.util.stream.Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }
}
