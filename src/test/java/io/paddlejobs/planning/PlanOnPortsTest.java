package io.paddlejobs.planning;

import static io.paddlejobs.planning.PlannerFixtures.POLICY;
import static io.paddlejobs.planning.PlannerFixtures.SITE;
import static io.paddlejobs.planning.PlannerFixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A plan moved to the ports a backend allocated: every replica listens there, the spec stays as given. */
class PlanOnPortsTest {

    private final JobPlanner planner = new JobPlanner(POLICY);

    @Test
    void planOnOtherPortsWiresEveryReplicaToThemAndKeepsTheSpecAsGiven() {
        JobPlan given = plan("pservers=2 trainers=2");

        JobPlan moved = planner.onPorts(given, 23000, SITE);

        assertThat(moved.ports().first()).isEqualTo(23000);
        assertThat(moved.replicas()).allSatisfy(replica ->
                assertThat(replica.env().get(PaddleEnv.PORT)).isEqualTo("23000"));
        assertThat(moved.spec()).isEqualTo(given.spec());
        assertThat(moved.spec().topology().port()).isNull();
        assertThat(moved.derivations()).anySatisfy(d -> {
            assertThat(d.field()).isEqualTo("port");
            assertThat(d.value()).isEqualTo("23000");
            assertThat(d.rule()).contains("allocated by the backend");
        });
        assertThat(moved.derivations()).hasSize(given.derivations().size() + 1);
    }

    @Test
    void withersChangeOnlyTheFieldTheyName() {
        JobPlan given = plan("pservers=1 trainers=2");

        JobPlan other = given.withImage("example/other:1");

        assertThat(other.image()).isEqualTo("example/other:1");
        assertThat(other.withImage(given.image())).isEqualTo(given);
        assertThat(given.withReplicas(given.replicasOf(Role.TRAINER)).replicas()).hasSize(2);
        assertThat(given.withSpec(given.spec().withName("renamed")).spec().name()).isEqualTo("renamed");
        assertThat(given.withSpec(given.spec().withName("renamed")).name()).isEqualTo(given.name());
    }
}
