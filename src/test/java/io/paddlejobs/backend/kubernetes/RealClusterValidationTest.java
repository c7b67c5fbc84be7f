package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.ClusterInvalidException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the real API server's validation refuses, past the service's own checks (here skipped by
 * submitting a plan directly): a 400 naming the request field in the server's words, and nothing
 * left behind.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class RealClusterValidationTest {


    private static KubernetesClient admin;
    private static MockCluster.Backend running;
    private static String ns;

    @BeforeAll
    static void connect() {
        ControlPlane plane = RealCluster.plane();
        admin = plane.admin();
        ns = RealBackends.namespace(plane, "invalid");
        running = RealBackends.startSynced(plane, plane.adminToken(), MockCluster.settings(List.of(ns)));
    }

    @AfterAll
    static void disconnect() {
        if (running != null) {
            running.close();
        }
    }

    @Test
    void anObjectTheApiServerFindsInvalidIsA400NamingTheFieldAndLeavesNothingBehind() {
        var plan = Plans.plan(RealBackends.request("badlabel", 1, "paddlepaddle/paddle:2.6.1",
                Map.of("team", "not a label value!")), ns);

        assertThatThrownBy(() -> running.jobs().submit(plan)).isInstanceOfSatisfying(ClusterInvalidException.class, e -> {
            assertThat(e.getStatusCode().value()).isEqualTo(400);
            assertThat(e.getBody().getDetail()).contains("Invalid value");
            assertThat(String.valueOf(e.getBody().getProperties().get("errors"))).contains("field=labels");
        });
        assertThat(admin.batch().v1().jobs().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(admin.services().inNamespace(ns).list().getItems()).isEmpty();
    }
}
