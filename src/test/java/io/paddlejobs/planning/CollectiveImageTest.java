package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A collective job runs Paddle 3, where collective mode lives: its plan never shows the Paddle 2.6 default image. */
class CollectiveImageTest {

    private static final PlanningPolicy POLICY = new PlanningPolicy(PlannerFixtures.POLICY.defaults(),
            PlannerFixtures.POLICY.limits(), new PlanningPolicy.Gpu("paddle:2.6-gpu", null, null),
            new PlanningPolicy.Collective("paddle:3.3", "paddle:3.3-gpu"));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            mode=collective num_cpus=2            | paddle:3.3     | paddlejobs.defaults.collective-image
            mode=collective num_gpus=2            | paddle:3.3-gpu | paddlejobs.defaults.collective-gpu-image
            mode=collective image=mine:1          | mine:1         |
            num_gpus=2                            | paddle:2.6-gpu | paddlejobs.defaults.gpu-image""")
    void theImageFollowsTheModeWhereTheRequestNamesNone(String spec, String image, String setting) {
        JobPlan plan = new JobPlanner(POLICY).plan(PlannerFixtures.request(spec, Map.of()), PlannerFixtures.NAMESPACE,
                PlannerFixtures.SITE);

        assertThat(plan.image()).isEqualTo(image);
        if (setting != null) {
            assertThat(plan.derivations()).anySatisfy(d -> assertThat(d.rule()).contains(setting));
        }
    }

    @org.junit.jupiter.api.Test
    void aParameterServerJobKeepsTheDefaultImage() {
        JobPlan plan = new JobPlanner(POLICY).plan(PlannerFixtures.request("num_cpus=2", Map.of()),
                PlannerFixtures.NAMESPACE, PlannerFixtures.SITE);

        assertThat(plan.image()).isEqualTo(PlannerFixtures.POLICY.defaults().image());
    }
}
