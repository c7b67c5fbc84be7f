package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.QuotaLedger;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.Quota;
import io.paddlejobs.job.QuotaAdmissionTest;
import io.paddlejobs.job.QuotaExceededException;
import io.paddlejobs.planning.JobRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas of the service (each its own backend, informers and admission, as two pods of deploy/ are) on one
 * real control plane, taking submits into one namespace at the same moment: together they never take it past its
 * quota ({@link QuotaLedger}), and a place a finished job gave back is free to either.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class TwoReplicasQuotaRealClusterTest {

    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private final ControlPlane plane = RealCluster.plane();
    private final KubernetesClient admin = plane.admin();
    private String ns;
    private MockCluster.Backend first;
    private MockCluster.Backend second;
    private List<JobService> replicas;

    @BeforeEach
    void start() {
        ns = RealBackends.namespace(plane, "replicas");
        first = RealBackends.startSynced(plane, plane.adminToken(), MockCluster.settings(List.of(ns)));
        second = RealBackends.startSynced(plane, plane.adminToken(), MockCluster.settings(List.of(ns)));
        replicas = List.of(QuotaAdmissionTest.service(first.jobs()), QuotaAdmissionTest.service(second.jobs()));
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
    }

    @Test
    void concurrentSubmitsThroughBothReplicasNeverTakeTheNamespacePastItsUnfinishedJobs() throws Exception {
        List<Boolean> admitted = submitAtOnce(12, new Quota(3, 0), i -> RealBackends.request("job-" + i, 1,
                "paddlepaddle/paddle:2.6.1", FakeKubelet.trainersKeepRunning()));

        assertThat(admitted).filteredOn(Boolean::booleanValue).hasSize(3);
        assertThat(trainerJobs()).hasSize(3);

        String done = trainerJobs().get(0).replace("-trainer", "");
        first.jobs().cancel(new JobKey(ns, done));
        await().atMost(DEADLINE).until(() -> second.jobs().find(new JobKey(ns, done))
                .map(job -> job.status().phase() == JobPhase.CANCELLED).orElse(false));
        assertThat(replicas.get(1).submit(RealBackends.request("after", 1, "paddlepaddle/paddle:2.6.1",
                FakeKubelet.trainersKeepRunning()), ns, new Quota(3, 0)).created())
                .as("the place the cancelled job held, though the other replica claimed it a moment ago").isTrue();
    }

    @Test
    void concurrentSubmitsThroughBothReplicasNeverHoldMoreGpusThanTheQuota() throws Exception {
        List<Boolean> admitted = submitAtOnce(8, new Quota(0, 4), i -> RealBackends.gpuRequest("gpu-" + i, 2,
                FakeKubelet.trainersKeepRunning()));

        assertThat(admitted).filteredOn(Boolean::booleanValue).hasSize(2);
        assertThat(trainerJobs()).hasSize(2);
    }

    /** Submits {@code count} jobs from 8 threads, alternately through each replica, all released at once. */
    private List<Boolean> submitAtOnce(int count, Quota quota, IntFunction<JobRequest> request)
            throws InterruptedException, ExecutionException {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> outcomes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                JobService replica = replicas.get(i % 2);
                JobRequest job = request.apply(i);
                outcomes.add(threads.submit(() -> {
                    go.await();
                    try {
                        return replica.submit(job, ns, quota).created();
                    } catch (QuotaExceededException refused) {
                        return false;
                    }
                }));
            }
            go.countDown();
            List<Boolean> admitted = new ArrayList<>();
            for (Future<Boolean> outcome : outcomes) {
                admitted.add(outcome.get());
            }
            return admitted;
        } finally {
            threads.shutdownNow();
        }
    }

    private List<String> trainerJobs() {
        return admin.batch().v1().jobs().inNamespace(ns).withLabels(JobLabels.managed()).list().getItems().stream()
                .map(job -> job.getMetadata().getName()).filter(name -> name.endsWith("-trainer")).sorted().toList();
    }
}
