package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.planning.Role;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One API call that hangs holds up its own job alone. The lifecycle looks at jobs on a few threads, one
 * look per job at a time; with one thread for every job, one slow call (a list of events, a restart's
 * delete and create) held up every other job's release, restart and stall.
 */
class ReconcilerSlowApiTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /** At most this long is the slow call held, whatever happens: the test releases it sooner. */
    private static final long HELD_AT_MOST_SECONDS = 60;

    @Test
    void aReleaseHeldUpAtTheApiServerDelaysNoOtherJobsRelease() throws Exception {
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        // Every change to the trainer Job of the job in namespace "slow" waits, as behind a slow API server.
        Interceptor slow = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
                if ("PATCH".equals(request.method()) && request.uri().getPath().endsWith("/namespaces/slow/jobs/mnist-trainer")) {
                    reached.countDown();
                    try {
                        goOn.await(HELD_AT_MOST_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        try (MockCluster cluster = new MockCluster()) {
            ClusterWriter write = new ClusterWriter(cluster.admin);
            KubernetesClient client = new KubernetesClientBuilder()
                    .withConfig(KubernetesClientFactory.config(MockCluster.connection(cluster.url())))
                    .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("slow", slow)).build();
            try (var backend = new MockCluster.Backend(client, KubernetesRuntime.start(client,
                    MockCluster.settings(List.of("slow", "quick"), "resync", "1s"), Plans.PLANNER, Clock.systemUTC()))) {
                await().atMost(DEADLINE).until(() -> backend.cache().synced());
                for (String ns : List.of("slow", "quick")) {
                    cluster.provideDataClaim(ns);
                    backend.jobs().submit(Plans.plan(Plans.request("mnist", 2), ns));
                }

                readyPservers(write, "slow");
                assertThat(reached.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the slow job's release was tried").isTrue();
                readyPservers(write, "quick");

                await("the other job released while the slow one's release hangs").atMost(DEADLINE)
                        .until(() -> !suspended(write.trainerJob("quick", "mnist")));
                assertThat(suspended(write.trainerJob("slow", "mnist"))).as("its release still hangs").isTrue();

                goOn.countDown();
                await().atMost(DEADLINE).until(() -> !suspended(write.trainerJob("slow", "mnist")));
            }
        } finally {
            goOn.countDown();
        }
    }

    private static void readyPservers(ClusterWriter write, String ns) {
        for (int i = 0; i < 2; i++) {
            Pod pod = Pods.of("mnist", Role.PSERVER, i);
            pod.getMetadata().setNamespace(ns);
            write.put(Pods.ready(Pods.running(pod)));
        }
    }

    private static boolean suspended(Job job) {
        return job != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
    }
}
