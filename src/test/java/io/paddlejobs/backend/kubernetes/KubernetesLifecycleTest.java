package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The life of a job driven by the real reconciler against the mock API server, the test playing
 * the Job controller and the kubelets. Short timers: a resync every second, a TTL of 2 s, and in
 * one namespace a pending timeout of 2 s (each backend serves its own namespaces).
 */
class KubernetesLifecycleTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final List<String> NAMESPACES = List.of("release", "crash", "cancel", "events", "resync");

    private static MockCluster cluster;
    private static ClusterWriter write;
    private static MockCluster.Backend lifecycle;
    private static MockCluster.Backend impatient;

    @BeforeAll
    static void start() {
        cluster = new MockCluster();
        write = new ClusterWriter(cluster.admin);
        lifecycle = cluster.startBackend(MockCluster.settings(NAMESPACES, "resync", "1s", "ttl-seconds-after-finished", 2));
        impatient = cluster.startBackend(MockCluster.settings(List.of("pending"), "pending-timeout", "2s", "resync", "1s"));
        await().atMost(DEADLINE).until(() -> lifecycle.cache().synced() && impatient.cache().synced());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static JobKey submit(MockCluster.Backend backend, String ns) {
        cluster.provideDataClaim(ns);
        JobPlan plan = Plans.plan(Plans.request("mnist", 2), ns);
        backend.jobs().submit(plan);
        return new JobKey(ns, "mnist");
    }

    private static Pod pod(String ns, Role role, int index) {
        var pod = Pods.of("mnist", role, index);
        pod.getMetadata().setNamespace(ns);
        return pod;
    }

    private static JobPhase phase(MockCluster.Backend backend, JobKey key) {
        return backend.jobs().find(key).map(j -> j.status().phase()).orElse(null);
    }

    private static boolean suspended(Job job) {
        return job != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
    }

    @Test
    void trainersAreReleasedWhenEveryPserverIsReadyAndNotBefore() {
        JobKey key = submit(lifecycle, "release");
        write.put(Pods.ready(Pods.running(pod("release", Role.PSERVER, 0))));
        write.put(Pods.running(pod("release", Role.PSERVER, 1)));
        // The cache sees the pods a moment after they are written; until then the pservers are only Starting.
        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key)
                .map(job -> job.status().reason()).filter("WaitingForPservers"::equals).isPresent());
        assertThat(suspended(write.trainerJob("release", "mnist"))).isTrue();

        write.put(Pods.ready(Pods.running(pod("release", Role.PSERVER, 1))));

        await().atMost(DEADLINE).until(() -> !suspended(write.trainerJob("release", "mnist")));
    }

    @Test
    void aCrashedPserverFailsTheJobWithItsReasonAndStopsEverything() {
        JobKey key = submit(lifecycle, "crash");
        write.put(Pods.ready(Pods.running(pod("crash", Role.PSERVER, 0))));
        write.put(Pods.failed(pod("crash", Role.PSERVER, 1), 137, "OOMKilled"));

        await().atMost(DEADLINE).until(() -> write.trainerJob("crash", "mnist").getMetadata().getAnnotations()
                .containsKey(JobLabels.FAILED_AT_ANNOTATION));
        var job = lifecycle.jobs().find(key).orElseThrow();
        assertThat(job.status().phase()).isEqualTo(JobPhase.FAILED);
        assertThat(job.status().reason()).isEqualTo("OOMKilled");
        assertThat(job.status().message()).startsWith("pserver-1 failed: killed for using more memory");
        assertThat(suspended(write.trainerJob("crash", "mnist"))).as("the trainers never start").isTrue();
        await().atMost(DEADLINE).until(() -> suspended(write.pserverJob("crash", "mnist")));
    }

    @Test
    void aCancelledJobIsNeverRestartedAndIsRemovedOnceTheTtlHasPassed() {
        JobKey key = submit(lifecycle, "cancel");
        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key).isPresent());
        lifecycle.jobs().cancel(key);
        // Someone (a user, a queueing controller) resumes it.
        cluster.admin.batch().v1().jobs().inNamespace("cancel").withName("mnist-trainer")
                .edit(j -> { j.getSpec().setSuspend(false); return j; });

        await().atMost(DEADLINE).until(() -> {
            Job trainers = write.trainerJob("cancel", "mnist");
            return trainers == null || suspended(trainers);
        });
        await().atMost(DEADLINE).until(() -> write.trainerJob("cancel", "mnist") == null);
        // Removed by name too (the garbage collector would on a real cluster), right after the trainer Job.
        await().atMost(DEADLINE).until(() -> write.pserverJob("cancel", "mnist") == null);
        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key).isEmpty());
    }

    @Test
    void aJobStuckForAReasonOnlyEventsGiveSaysThatReason() {
        cluster.admin.v1().events().inNamespace("events").resource(new EventBuilder()
                .withNewMetadata().withName("mnist-pserver.1").withNamespace("events").endMetadata()
                .withType("Warning").withReason("FailedCreate").withLastTimestamp(Pods.T1)
                .withMessage("Error creating: pods \"mnist-pserver-0-abcde\" is forbidden: exceeded quota: compute")
                .withNewInvolvedObject().withKind("Job").withName("mnist-pserver").withNamespace("events").endInvolvedObject()
                .build()).create();
        JobKey key = submit(lifecycle, "events");

        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key)
                .map(j -> "FailedCreate".equals(j.status().reason())).orElse(false));
        assertThat(lifecycle.jobs().find(key).orElseThrow().status().message())
                .isEqualTo("Job mnist-pserver: Error creating: pods \"mnist-pserver-0-abcde\" is forbidden: exceeded quota: compute");
    }

    @Test
    void aJobPendingPastThePendingTimeoutFails() {
        // The scheduler's word is in before the job's first look: the timeout is short.
        write.put(Pods.unschedulable(pod("pending", Role.PSERVER, 0), "0/3 nodes are available: 3 Insufficient cpu."));
        JobKey key = submit(impatient, "pending");

        await().atMost(DEADLINE).until(() -> phase(impatient, key) == JobPhase.FAILED);
        var status = impatient.jobs().find(key).orElseThrow().status();
        assertThat(status.reason()).isEqualTo("PendingTimeout");
        assertThat(status.message()).contains("Insufficient cpu");
    }

    @Test
    void theResyncOffersAnUnchangedJobAgainAndAgain() {
        JobKey key = submit(lifecycle, "resync");
        await().atMost(DEADLINE).until(() -> lifecycle.jobs().find(key).isPresent());
        AtomicInteger offered = new AtomicInteger();
        lifecycle.cache().addListener(k -> {
            if (k.equals(key)) {
                offered.incrementAndGet();
            }
        });

        await().atMost(DEADLINE).until(() -> offered.get() >= 3);
    }
}
