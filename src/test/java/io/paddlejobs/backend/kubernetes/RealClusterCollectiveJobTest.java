package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A collective job (trainers only) on the real control plane: nothing waits for pservers, it runs to the end. */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterCollectiveJobTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static KubernetesClient admin;
    private static MockCluster.Backend running;
    private static String ns;

    @BeforeAll
    static void connect() {
        ControlPlane plane = RealCluster.plane();
        admin = plane.admin();
        ns = RealBackends.namespace(plane, "collective");
        running = RealBackends.startSynced(plane, plane.adminToken());
    }

    @AfterAll
    static void disconnect() {
        if (running != null) {
            running.close();
        }
    }

    @Test
    void aCollectiveJobIsItsTrainersAloneAndRunsToSucceeded() {
        JobKey key = new JobKey(ns, "ring");
        running.jobs().submit(Plans.plan(RealBackends.collectiveRequest("ring", 2, "paddlepaddle/paddle:3.3.1", Map.of()), ns));

        await().atMost(DEADLINE).until(() -> running.jobs().find(key).map(j -> j.status().phase()).orElse(null)
                == JobPhase.SUCCEEDED);

        assertThat(admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob("ring")).get()).isNull();
        assertThat(admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob("ring")).get()
                .getSpec().getSuspend()).as("created running: no pservers to wait for").isFalse();
        List<Pod> trainers = admin.pods().inNamespace(ns).withLabels(JobLabels.selector("ring", Role.TRAINER)).list().getItems();
        assertThat(trainers).extracting(pod -> pod.getSpec().getHostname() + "." + pod.getSpec().getSubdomain())
                .containsExactlyInAnyOrder("ring-trainer-0.ring", "ring-trainer-1.ring");
        assertThat(trainers).allSatisfy(pod -> assertThat(pod.getSpec().getInitContainers()).isEmpty());
        Job done = running.jobs().find(key).orElseThrow();
        assertThat(done.status().replicas()).extracting(r -> r.role()).containsOnly(Role.TRAINER);
        assertThat(done.status().replicas()).extracting(r -> r.state()).containsOnly(ReplicaState.SUCCEEDED);
    }
}
