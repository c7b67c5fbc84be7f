package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.VolcanoCrds;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code scheduler: volcano} on the real control plane with Volcano's CRDs installed ({@link VolcanoCrds}): the API
 * server accepts the PodGroup and the pods that name it, nothing of the job is placed until all of it is, and the
 * job says why it waits in Volcano's words. No Volcano scheduler is served here, so the test does its part: it
 * writes the PodGroup's status as Volcano does and then binds every pod at once, as a gang; kwok runs them.
 */
@Tag("cluster")
class VolcanoRealClusterTest {

    /** Generous: the Job controller, the garbage collector and kwok each take their turn on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofMinutes(3);

    private final ControlPlane plane = VolcanoCrds.plane();
    private final KubernetesClient admin = plane.admin();
    private String ns;
    private MockCluster.Backend running;
    private KubernetesJobBackend backend;

    @BeforeEach
    void start() {
        ns = RealBackends.namespace(plane, "volcano");
        running = RealBackends.startSynced(plane, plane.adminToken(), MockCluster.settings(List.of(ns),
                "scheduler", "volcano", "queues." + ns, "research", "resync", "2s"),
                new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)));
        backend = running.jobs();
    }

    @AfterEach
    void stop() {
        running.close();
    }

    @Test
    void aJobIsOneGangThatWaitsSayingWhyUntilAllOfItIsPlacedThenRunsToItsEnd() {
        JobPlan plan = Plans.plan(RealBackends.request("gang", 2, "paddlepaddle/paddle:2.6.1", Map.of()), ns);
        assertThat(backend.manifests(plan)).extracting(m -> m.get("kind")).containsExactly("Job", "Service", "Job", "PodGroup");
        backend.submit(plan);

        GenericKubernetesResource group = await().atMost(DEADLINE).until(() -> podGroup("gang"), g -> g != null);
        assertThat(spec(group)).containsEntry("minMember", 3).containsEntry("queue", "research");
        assertThat(group.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("gang-trainer"));
        await("every replica's pod exists, none held back").atMost(DEADLINE).until(() -> pods("gang").size() == 3);
        assertThat(pods("gang")).allSatisfy(pod -> {
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("volcano");
            assertThat(pod.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", "gang");
            assertThat(pod.getSpec().getNodeName()).as("the default scheduler leaves Volcano's pods alone").isNull();
        });
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(message("gang")).contains("has not looked at it yet"));
        assertThat(status("gang").phase()).isEqualTo(JobPhase.PENDING);

        writeStatusAsVolcanoDoes("gang", "Inqueue",
                "3/3 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 3 Pending");
        await().atMost(DEADLINE).until(() -> message("gang").equals("PodGroup gang: waiting in Volcano queue research until"
                + " all 3 replicas can be placed at once (Inqueue): 3/3 tasks in gang unschedulable: pod group is not ready,"
                + " 3 minAvailable, 3 Pending"));

        placeTheGang("gang");
        await().atMost(DEADLINE).until(() -> status("gang").phase() == JobPhase.SUCCEEDED);
        assertThat(status("gang").trainers().succeeded()).isEqualTo(2);

        assertThat(backend.delete(new JobKey(ns, "gang"))).isTrue();
        await("the PodGroup goes with its job").atMost(DEADLINE).until(() -> podGroup("gang") == null);
    }

    /**
     * A gang cancelled while it waits in Volcano's queue gives its place back at once: its PodGroup goes with the
     * cancel (it would otherwise stay {@code Inqueue}, holding the queue's resources, until its job is removed),
     * and nothing of it is left to place.
     */
    @Test
    void aGangCancelledWhileItWaitsInItsQueueGivesItsPlaceBackAtOnceAndNothingOfItRuns() {
        backend.submit(Plans.plan(RealBackends.request("waits", 2, "paddlepaddle/paddle:2.6.1", Map.of()), ns));
        await().atMost(DEADLINE).until(() -> podGroup("waits") != null && pods("waits").size() == 3);
        writeStatusAsVolcanoDoes("waits", "Inqueue",
                "3/3 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 3 Pending");

        assertThat(backend.cancel(new JobKey(ns, "waits")).orElseThrow().status().phase()).isEqualTo(JobPhase.CANCELLED);

        assertThat(podGroup("waits")).as("out of Volcano's queue at once").isNull();
        await("its pods go with their suspended Jobs, never placed").atMost(DEADLINE).until(() -> pods("waits").isEmpty());
        assertThat(status("waits").phase()).isEqualTo(JobPhase.CANCELLED);
    }

    @Test
    void aRestartMakesTheGangAnewAndReleasesItsTrainersWithoutWaitingForThePservers() {
        JobRequest request = JobRequests.named("again", "python train.py").pserverEntryPoint("python train.py")
                .image("paddlepaddle/paddle:2.6.1").trainers(1).pservers(1).queue("urgent")
                .labels(new HashMap<>(FakeKubelet.trainersFailTheFirstAttempt())).maxRestarts(1).build();
        backend.submit(Plans.plan(request, ns));
        String firstGroup = await().atMost(DEADLINE).until(() -> podGroup("again"), g -> g != null).getMetadata().getUid();
        await().atMost(DEADLINE).until(() -> pods("again").size() == 2);
        placeTheGang("again");

        await("the first attempt failed and the next one's gang exists").atMost(DEADLINE).untilAsserted(() -> {
            GenericKubernetesResource group = podGroup("again");
            assertThat(group).isNotNull();
            assertThat(group.getMetadata().getUid()).isNotEqualTo(firstGroup);
            assertThat(unplaced("again")).extracting(pod -> pod.getMetadata().getName()).hasSize(2);
        });
        assertThat(spec(podGroup("again"))).containsEntry("queue", "urgent").containsEntry("minMember", 2);
        assertThat(status("again").restarts()).isEqualTo(1);
        placeTheGang("again");

        await().atMost(DEADLINE).until(() -> status("again").phase() == JobPhase.SUCCEEDED);
        assertThat(status("again").restarts()).isEqualTo(1);
    }

    /** What Volcano's scheduler writes on a PodGroup it cannot place yet (PodGroup has no status subresource). */
    private void writeStatusAsVolcanoDoes(String job, String phase, String message) {
        GenericKubernetesResource group = podGroup(job);
        group.getAdditionalProperties().put("status", Map.of("phase", phase, "conditions", List.of(Map.of(
                "type", "Unschedulable", "status", "True", "reason", "NotEnoughResources", "message", message,
                "transitionID", "1", "lastTransitionTime", "2026-12-05T00:00:00Z"))));
        admin.resource(group).update();
    }

    /** Binds every unplaced pod of the job's current attempt at once, as Volcano's gang scheduling does. */
    private void placeTheGang(String job) {
        List<Pod> gang = unplaced(job);
        for (int i = 0; i < gang.size(); i++) {
            Pod pod = gang.get(i);
            admin.bindings().inNamespace(ns).resource(new BindingBuilder()
                    .withNewMetadata().withName(pod.getMetadata().getName()).endMetadata()
                    .withNewTarget().withKind("Node").withName(i % 2 == 0 ? "node-a" : "node-b").endTarget()
                    .build()).create();
        }
    }

    private List<Pod> unplaced(String job) {
        return pods(job).stream().filter(pod -> pod.getSpec().getNodeName() == null
                && pod.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private List<Pod> pods(String job) {
        return admin.pods().inNamespace(ns).withLabels(JobLabels.selector(job)).list().getItems();
    }

    private GenericKubernetesResource podGroup(String job) {
        return admin.genericKubernetesResources(VolcanoGroups.API_VERSION, VolcanoGroups.KIND).inNamespace(ns)
                .withName(job).get();
    }

    private JobStatus status(String job) {
        return backend.find(new JobKey(ns, job)).orElseThrow().status();
    }

    private String message(String job) {
        String message = status(job).message();
        return message == null ? "" : message;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource group) {
        return (Map<String, Object>) group.getAdditionalProperties().get("spec");
    }
}
