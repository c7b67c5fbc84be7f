package io.paddlejobs.backend.kubernetes;


import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.FakeKubelet;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobBackendContract;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The port's contract on the Kubernetes backend, wired as the service wires it, against the real
 * control plane (API server, Job and garbage-collector controllers, scheduler), whose fake nodes
 * play the replicas as the job's labels tell them (kwok-stages.yaml). A namespace per test.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class KubernetesJobBackendContractTest extends JobBackendContract {

    private static final Set<String> UNFINISHED = Set.of("Pending", "Running");

    private static ControlPlane plane;
    private static KubernetesClient admin;
    private static MockCluster.Backend running;

    private String ns;

    @BeforeAll
    static void connect() {
        plane = RealCluster.plane();
        admin = plane.admin();
        running = RealBackends.startSynced(plane, plane.adminToken(), BACKOFF);
    }

    @AfterAll
    static void disconnect() {
        if (running != null) {
            running.close();
        }
    }

    @BeforeEach
    void createNamespace() {
        ns = RealBackends.namespace(plane, "contract");
    }

    @Override
    protected JobBackend backend() {
        return running.jobs();
    }

    @Override
    protected String namespace() {
        return ns;
    }

    @Override
    protected JobPlan plan(String name, Act act) {
        Map<String, String> labels = switch (act.kind()) {
            case KEEPS_RUNNING -> FakeKubelet.trainersKeepRunning();
            case TRAINER_EXITS -> FakeKubelet.trainersExitWith(act.n());
            // What is printed does not matter: the fake nodes have no kubelet to serve it.
            case TRAINER_PRINTS -> FakeKubelet.trainersExitWith(0);
            case TRAINER_FAILS_THE_FIRST_ATTEMPT -> FakeKubelet.trainersFailTheFirstAttempt();
        };
        return Plans.plan(RealBackends.request(name, 1, "paddlepaddle/paddle:2.6.1", labels), ns);
    }

    @Override
    protected boolean anyReplicaRunning(JobKey key) {
        return admin.pods().inNamespace(key.namespace()).withLabels(JobLabels.selector(key.name())).list().getItems()
                .stream().anyMatch(pod -> UNFINISHED.contains(pod.getStatus().getPhase()));
    }

    /** kwok's nodes have no kubelet to serve a log; KubernetesJobBackendTest reads tails from pods on the mock server. */
    @Override
    @Test
    @Disabled("the real control plane's fake nodes cannot serve logs")
    protected void logsOfAReplicaAreItsLastLines() {
    }
}
