package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.status.PodStates;
import static io.paddlejobs.backend.kubernetes.ClusterReads.phase;
import static io.paddlejobs.backend.kubernetes.ClusterReads.running;
import static io.paddlejobs.backend.kubernetes.ClusterReads.suspended;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The life of a job as the service's reconciler lives it with the real Job controller, scheduler,
 * garbage collector and kwok's kubelets: release on readiness, a pserver crash, pods nobody can
 * place, cancel and the TTL, a finished job's TTL, max_run_time, and the resync. Short timers (a resync every second, a
 * TTL of 5 s; one backend with a pending timeout of 3 s, each serving its own namespaces).
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterLifecycleTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String IMAGE = "paddlepaddle/paddle:2.6.1";

    private static KubernetesClient admin;
    private static ClusterReads reads;
    private static MockCluster.Backend lifecycle;
    private static MockCluster.Backend impatient;
    private static String release;
    private static String crash;
    private static String cancel;
    private static String deadline;
    private static String resync;
    private static String pending;
    private static String finished;

    @BeforeAll
    static void start() {
        ControlPlane plane = RealCluster.plane();
        admin = plane.admin();
        reads = new ClusterReads(admin);
        String claim = Settings.defaults(KubernetesProperties.class).dataClaim();
        release = RestrictedNamespaces.create(admin, "release", claim);
        crash = RestrictedNamespaces.create(admin, "crash", claim);
        cancel = RestrictedNamespaces.create(admin, "cancel", claim);
        deadline = RestrictedNamespaces.create(admin, "deadline", claim);
        resync = RestrictedNamespaces.create(admin, "resync", claim);
        pending = RestrictedNamespaces.create(admin, "pending", claim);
        finished = RestrictedNamespaces.create(admin, "finished", claim);
        lifecycle = RealBackends.start(plane, plane.adminToken(),
                MockCluster.settings(List.of(release, crash, cancel, deadline, resync, finished),
                        "resync", "1s", "ttl-seconds-after-finished", 5));
        impatient = RealBackends.start(plane, plane.adminToken(),
                MockCluster.settings(List.of(pending), "pending-timeout", "3s", "resync", "1s"));
        await().atMost(DEADLINE).until(() -> lifecycle.cache().synced() && impatient.cache().synced());
    }

    @AfterAll
    static void stop() {
        for (MockCluster.Backend backend : new MockCluster.Backend[] {lifecycle, impatient}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    @Test
    void trainersAreReleasedWhenEveryPserverIsReadyAndNotBefore() {
        JobKey key = new JobKey(release, "held");
        lifecycle.jobs().submit(Plans.plan(withPservers(2, RealBackends.request("held", 2, IMAGE,
                FakeKubelet.pserversNotReady(), FakeKubelet.trainersKeepRunning())), release));
        await().atMost(DEADLINE).until(() -> running(reads.pods(release, "held", Role.PSERVER)) == 2);

        makeReady(release, "held", 0);
        await().atMost(DEADLINE).until(() -> PodStates.ready(reads.pods(release, "held", Role.PSERVER).stream()
                .filter(p -> p.getSpec().getHostname().endsWith("-0")).findFirst().orElse(null)));
        // One pserver ready, the other running but not: the trainers stay held, whatever the resyncs.
        await().during(Duration.ofSeconds(3)).atMost(DEADLINE).until(() ->
                suspended(reads.trainerJob(release, "held")) && reads.pods(release, "held", Role.TRAINER).isEmpty());
        assertThat(lifecycle.jobs().find(key).orElseThrow().status().reason()).isEqualTo(PodStates.WAITING_FOR_PSERVERS);

        makeReady(release, "held", 1);

        await().atMost(DEADLINE).until(() -> phase(lifecycle, key) == JobPhase.RUNNING);
        assertThat(reads.pods(release, "held", Role.TRAINER)).hasSize(2);
        lifecycle.jobs().cancel(key);
    }

    @Test
    void aPserverThatCrashesUnderRunningTrainersFailsTheJobWithItsExitCodeAndStopsTheTrainers() {
        JobKey key = new JobKey(crash, "lost");
        lifecycle.jobs().submit(Plans.plan(RealBackends.request("lost", 2, IMAGE,
                FakeKubelet.pserversCrashWith(137), FakeKubelet.trainersKeepRunning()), crash));
        await().atMost(DEADLINE).until(() -> running(reads.pods(crash, "lost", Role.TRAINER)) == 2);

        await().atMost(DEADLINE).until(() -> phase(lifecycle, key) == JobPhase.FAILED);

        var status = lifecycle.jobs().find(key).orElseThrow().status();
        assertThat(status.message()).startsWith("pserver-0 failed: killed by signal 9");
        assertThat(status.reason()).isNotBlank();
        await().atMost(DEADLINE).until(() -> suspended(reads.trainerJob(crash, "lost"))
                && reads.pods(crash, "lost", Role.TRAINER).isEmpty());
        assertThat(reads.pods(crash, "lost", Role.PSERVER)).as("the pserver is not brought back")
                .singleElement().satisfies(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Failed"));
        assertThat(phase(lifecycle, key)).isEqualTo(JobPhase.FAILED);
    }

    @Test
    void aJobWhosePserversNoNodeCanHoldFailsWithTheSchedulersReason() {
        JobKey key = new JobKey(pending, "huge");
        impatient.jobs().submit(Plans.plan(RealBackends.unschedulableRequest("huge"), pending));

        await().atMost(DEADLINE).until(() -> phase(impatient, key) == JobPhase.FAILED);

        var status = impatient.jobs().find(key).orElseThrow().status();
        assertThat(status.reason()).isEqualTo("PendingTimeout");
        assertThat(status.message()).contains("Insufficient cpu");
        await().atMost(DEADLINE).until(() -> reads.pods(pending, "huge", Role.PSERVER).isEmpty());
    }

    @Test
    void aCancelledJobIsNeverRestartedAndIsRemovedOnceTheTtlHasPassed() {
        JobKey key = new JobKey(cancel, "quit");
        lifecycle.jobs().submit(Plans.plan(RealBackends.request("quit", 2, IMAGE, FakeKubelet.trainersKeepRunning()), cancel));
        await().atMost(DEADLINE).until(() -> phase(lifecycle, key) == JobPhase.RUNNING);

        lifecycle.jobs().cancel(key);
        // Someone (a user, a queueing controller) resumes it.
        admin.batch().v1().jobs().inNamespace(cancel).withName(ObjectNames.trainerJob("quit"))
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}");

        await().atMost(DEADLINE).until(() -> {
            Job trainers = reads.trainerJob(cancel, "quit");
            return trainers == null || suspended(trainers);
        });
        assertThat(phase(lifecycle, key)).isIn(JobPhase.CANCELLED, null);
        await().atMost(DEADLINE).until(() -> admin.batch().v1().jobs().inNamespace(cancel).list().getItems().isEmpty()
                && admin.services().inNamespace(cancel).list().getItems().isEmpty()
                && admin.pods().inNamespace(cancel).list().getItems().isEmpty());
        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key).isEmpty());
    }

    @Test
    void aFinishedJobIsRemovedWithEverythingItOwnedOnceTheTtlHasPassed() {
        JobKey key = new JobKey(finished, "done");
        lifecycle.jobs().submit(Plans.plan(RealBackends.request("done", 2, IMAGE, Map.of()), finished));
        await().atMost(DEADLINE).until(() -> phase(lifecycle, key) == JobPhase.SUCCEEDED);

        // The TTL controller removes the trainer Job, the garbage collector what it owned.
        await().atMost(DEADLINE).until(() -> admin.batch().v1().jobs().inNamespace(finished).list().getItems().isEmpty()
                && admin.services().inNamespace(finished).list().getItems().isEmpty()
                && admin.pods().inNamespace(finished).list().getItems().isEmpty());
        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key).isEmpty());
    }

    @Test
    void aJobPastItsMaxRunTimeIsStoppedAndFails() {
        JobKey key = new JobKey(deadline, "endless");
        lifecycle.jobs().submit(Plans.plan(withMaxRunTime(RealBackends.request("endless", 1, IMAGE,
                FakeKubelet.trainersKeepRunning()), Duration.ofSeconds(4)), deadline));
        await().atMost(DEADLINE).until(() -> phase(lifecycle, key) == JobPhase.RUNNING);

        await().atMost(DEADLINE).until(() -> phase(lifecycle, key) == JobPhase.FAILED);

        assertThat(lifecycle.jobs().find(key).orElseThrow().status().reason()).isEqualTo("MaxRunTimeExceeded");
        await().atMost(DEADLINE).until(() -> reads.pods(deadline, "endless", Role.TRAINER).isEmpty()
                && running(reads.pods(deadline, "endless", Role.PSERVER)) == 0);
    }

    @Test
    void theResyncOffersAnUnchangedJobAgainAndAgain() {
        JobKey key = new JobKey(resync, "quiet");
        lifecycle.jobs().submit(Plans.plan(RealBackends.request("quiet", 1, IMAGE, FakeKubelet.pserversNotReady()), resync));
        await().atMost(DEADLINE).until(() -> running(reads.pods(resync, "quiet", Role.PSERVER)) == 1);
        AtomicInteger offered = new AtomicInteger();
        lifecycle.cache().addListener(k -> {
            if (k.equals(key)) {
                offered.incrementAndGet();
            }
        });

        // Nothing changes any more (the pserver stays unready): only the resync offers it, twice a second.
        await().atMost(DEADLINE).until(() -> offered.get() >= 6);
        lifecycle.jobs().cancel(key);
    }

    private static JobRequest withPservers(int pservers, JobRequest r) {
        return JobRequests.Builder.from(r).pservers(pservers).build();
    }

    private static JobRequest withMaxRunTime(JobRequest r, Duration limit) {
        return JobRequests.Builder.from(r).maxRunTime(limit).build();
    }

    private static void makeReady(String ns, String job, int index) {
        FakeKubelet.passReadinessProbe(admin, reads.pods(ns, job, Role.PSERVER).stream()
                .filter(p -> p.getSpec().getHostname().equals(ObjectNames.podHostname(job, Role.PSERVER, index)))
                .findFirst().orElseThrow());
    }
}
