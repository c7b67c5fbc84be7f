package io.paddlejobs.backend.kubernetes.lifecycle;

import io.paddlejobs.backend.kubernetes.ClusterWriter;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.MockCluster;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.Pods;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsProperties;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code stall_timeout} on Kubernetes, with a trainer pod whose log the test writes (fabric8's mock
 * server serves it as the API server would): the metrics collector follows the log as in the
 * service, what it reads is the trainer's sign of life, and a trainer that prints takes the
 * {@code Stalled} warning away again. The warning coming and going is told to the job's listeners,
 * though the informers see no change (their resync is a minute away). The real control plane's
 * fake nodes serve no logs: RealClusterStallsTest covers silence and the restart there.
 */
class KubernetesStallsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private static MockCluster cluster;
    private static ClusterWriter write;
    private static MockCluster.Backend running;

    @BeforeAll
    static void startCluster() {
        cluster = new MockCluster();
        write = new ClusterWriter(cluster.admin);
        running = cluster.startBackend();
        await().atMost(DEADLINE).until(() -> running.cache().synced());
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void aSilentTrainerIsStalledAndALineItPrintsTakesTheWarningAway() {
        String ns = "stalls";
        JobKey key = new JobKey(ns, "quiet");
        cluster.admin.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(Settings.defaults(KubernetesProperties.class).dataClaim()).withNamespace(ns).endMetadata()
                .withNewSpec().withAccessModes("ReadWriteMany").endSpec().build()).create();
        StringBuffer printed = new StringBuffer("epoch 1\n");
        AtomicBoolean printing = new AtomicBoolean();
        var pod = Pods.running(Pods.of("quiet", Role.TRAINER, 0));
        pod.getMetadata().setNamespace(ns);
        cluster.server.expect().get()
                .withPath("/api/v1/namespaces/" + ns + "/pods/" + pod.getMetadata().getName()
                        + "/log?pretty=false&container=paddle&follow=true")
                .andReply(200, request -> {
                    if (printing.get()) {
                        printed.append("step\n"); // one more line by each read: the trainer keeps printing
                    }
                    return printed.toString();
                }).always();
        var jobs = running.jobs();
        List<String> told = new CopyOnWriteArrayList<>();
        jobs.onChange(changed -> {
            if (changed.equals(key)) {
                jobs.find(key).ifPresent(job -> told.add(String.valueOf(job.status().reason())));
            }
        });
        jobs.submit(Plans.plan(JobRequests.Builder.from(Plans.collectiveRequest("quiet", 1))
                .stallTimeout(Duration.ofSeconds(2)).build(), ns));

        try (var metrics = new MetricsCollector(jobs, new MetricsProperties(1000, 64, 64, 200), Duration.ofMillis(50),
                Clock.systemUTC(), io.paddlejobs.metrics.MetricsArchive.NONE)) {
            write.put(pod);
            // It printed one line, long enough ago, and nothing since.
            await().atMost(DEADLINE).until(() -> StallWatch.STALLED.equals(status(key).reason()));
            JobStatus stalled = status(key);
            assertThat(stalled.phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(stalled.message()).startsWith(
                    "no trainer printed a line or reported a metric for 2 s (stall_timeout): trainer-0 since ");
            await().atMost(DEADLINE).until(() -> told.contains(StallWatch.STALLED));

            printing.set(true);
            await().atMost(DEADLINE).until(() -> status(key).reason() == null);
            // Told as it went, though the informers saw no change.
            await().atMost(DEADLINE).until(() -> told.get(told.size() - 1).equals("null"));
        }
    }

    private static JobStatus status(JobKey key) {
        return running.jobs().find(key).orElseThrow().status();
    }
}
