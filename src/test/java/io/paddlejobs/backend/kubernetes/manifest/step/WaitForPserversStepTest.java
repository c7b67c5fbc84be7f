package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.KubeletEnv;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WaitForPserversStepTest {

    @Test
    void waitsOnlyForTheEndpointsTrainersDialNotForTheSparsePorts() {
        var plan = Plans.plan("mnist", 2);
        assertThat(plan.ports().last()).as("the default plan declares a sparse port").isEqualTo(7165);
        assertThat(WaitForPserversStep.endpoints(plan)).containsExactly(
                "mnist-pserver-0.mnist:7164", "mnist-pserver-1.mnist:7164");
        assertThat(String.join(",", WaitForPserversStep.endpoints(plan)))
                .isEqualTo(plan.replicasOf(io.paddlejobs.planning.Role.TRAINER).get(0).env()
                        .get(io.paddlejobs.planning.PaddleEnv.PSERVERS_IP_PORT_LIST));
    }

    @Test
    void collectiveTrainersWaitForNothing() {
        var plan = Plans.plan(Plans.collectiveRequest("allreduce", 2), "ml");
        assertThat(WaitForPserversStep.endpoints(plan)).isEmpty();
        assertThat(new WaitForPserversStep(plan, "busybox:1.36", Duration.ofMinutes(2)).apply(PodParts.empty())
                .spec().getInitContainers()).isEmpty();
    }

    @Test
    void initContainerRunsTheScriptOverTheEndpointsWithTheTimeout() {
        var plan = Plans.plan("mnist", 1);
        var pod = new WaitForPserversStep(plan, "busybox:1.36", Duration.ofMinutes(2)).apply(PodParts.empty());
        var init = pod.spec().getInitContainers().get(0);
        assertThat(init.getImage()).isEqualTo("busybox:1.36");
        assertThat(init.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
        assertThat(init.getCommand().subList(0, 2)).containsExactly("sh", "-c");
        assertThat(init.getCommand().subList(3, init.getCommand().size()))
                .containsExactly("wait-for-pservers", "mnist-pserver-0.mnist:7164");
        assertThat(init.getEnv()).singleElement().satisfies(e -> {
            assertThat(e.getName()).isEqualTo("TIMEOUT_SECONDS");
            assertThat(e.getValue()).isEqualTo("120");
        });
        assertThat(KubeletEnv.expand(init.getCommand().get(2), java.util.Map.of("TIMEOUT_SECONDS", "120")))
                .isEqualTo(WaitForPserversStep.SCRIPT);
    }
}
