package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.metrics.MetricPoint;
import io.paddlejobs.metrics.MetricsArchive;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsProperties;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Metrics on the Kubernetes backend: read from each trainer pod's log through the API server (here
 * fabric8's mock server), waiting while the pod is not there yet, and not doubled when the log
 * is read again after its stream ends while the pod still runs.
 */
class KubernetesMetricsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

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
    void trainerPodsReportsAreReadOnceThePodRunsAndNotDoubledByReReads() {
        String ns = "metrics";
        JobKey key = new JobKey(ns, "mnist");
        // The namespace's data claim, as an operator provides it (a submit may check that it is there).
        cluster.admin.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(Settings.defaults(KubernetesProperties.class).dataClaim()).withNamespace(ns).endMetadata()
                .withNewSpec().withAccessModes("ReadWriteMany").endSpec().build()).create();
        var jobs = running.jobs();
        jobs.submit(Plans.plan(Plans.request("mnist", 2), ns));
        await().atMost(DEADLINE).until(() -> jobs.find(key).isPresent());
        Job job = jobs.find(key).orElseThrow();
        // Every read of trainer-0's log gives the same two lines, as a re-read of a running pod's log does.
        cluster.server.expect().get()
                .withPath("/api/v1/namespaces/" + ns + "/pods/mnist-trainer-0-x7k2p/log?pretty=false&container=paddle&follow=true")
                .andReturn(200, "epoch 1\nPADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.8}\n"
                        + "PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.3}\n").always();

        try (var metrics = new MetricsCollector(jobs, new MetricsProperties(1000, 64, 64, 200), Duration.ofMillis(50),
                Clock.systemUTC(), MetricsArchive.NONE)) {
            // no pod yet: the followers wait for one
            assertThat(metrics.read(job, 0).metrics()).isEmpty();

            var pod = Pods.running(Pods.of("mnist", Role.TRAINER, 0));
            pod.getMetadata().setNamespace(ns);
            write.put(pod);

            await().atMost(DEADLINE).until(() -> !metrics.read(job, 0).metrics().isEmpty());
            int requestsSoFar = cluster.server.getRequestCount();
            await().atMost(DEADLINE).until(() -> cluster.server.getRequestCount() > requestsSoFar + 2); // read again
            List<MetricPoint> points = metrics.read(job, 0).metrics().get("loss").get("trainer-0");
            assertThat(points).extracting(MetricPoint::step).containsExactly(1L, 2L);
            assertThat(points).extracting(MetricPoint::value).containsExactly(0.8, 0.3);
        }
    }
}
