package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.backend.slurm.SlurmProperties;
import io.paddlejobs.backend.slurm.SlurmSite;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.testing.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class PlacementTest {

    public static final SlurmProperties PROPERTIES = Settings.of(SlurmProperties.class,
            "shared-dir", "/shared", "replica-path", "/usr/bin:/bin");

    /** Two pservers and two trainers, planned with host tokens as the Slurm backend plans them. */
    public static JobPlan plan() {
        JobRequest request = JobRequests.named("demo", "python3 train.py").numCpus(2).memory(Memory.ofMebibytes(512))
                .pservers(2).port(7164).env(Map.of("NOTE", "@trainer-1@ stays")).build();
        return new JobPlanner(Settings.planningPolicyWithoutGpuRules()).plan(request, "default", new SlurmSite(PROPERTIES));
    }

    @Test
    void theTokensOfThePlanAreReplacedByEachReplicasAddressAndPort() {
        // As the batch step writes it: both pservers on one address get a port block each.
        Placement placement = Placement.parse("""
                pserver-0 10.0.0.1 7164 n1
                pserver-1 10.0.0.1 7166 n1
                trainer-0 10.0.0.2 7164 n2
                trainer-1 10.0.0.3 7164 n3
                """);
        JobPlan plan = plan();
        assertThat(placement.covers(plan)).isTrue();

        JobPlan placed = placement.apply(plan);

        Replica pserver1 = placed.replicasOf(io.paddlejobs.planning.Role.PSERVER).get(1);
        assertThat(pserver1.host()).isEqualTo("10.0.0.1");
        assertThat(pserver1.env()).containsEntry("POD_IP", "10.0.0.1").containsEntry("PADDLE_PORT", "7166")
                .containsEntry("PADDLE_PSERVERS_IP_PORT_LIST", "10.0.0.1:7164,10.0.0.1:7166")
                .containsEntry("PADDLE_TRAINER_ENDPOINTS", "10.0.0.2:7164,10.0.0.3:7164")
                .containsEntry("PADDLE_PSERVERS", "10.0.0.1,10.0.0.1");
        assertThat(placed.replicas()).allSatisfy(replica ->
                assertThat(replica.env().toString()).doesNotContain("@pserver-").doesNotContain("@trainer-0@"));
        assertThat(placed.spec()).isEqualTo(plan.spec());
        assertThat(placed.replicas()).as("a user's value is theirs, token or not")
                .allSatisfy(replica -> assertThat(replica.env()).containsEntry("NOTE", "@trainer-1@ stays"));
    }

    @Test
    void aCollectiveJobsNamesForTheMasterAllNameTrainerZeroOnceItIsPlaced() {
        JobRequest request = JobRequests.named("ring", "python3 train.py").mode(io.paddlejobs.planning.JobMode.COLLECTIVE)
                .trainers(2).port(7164).build();
        JobPlan plan = new JobPlanner(Settings.planningPolicyWithoutGpuRules())
                .plan(request, "default", new SlurmSite(PROPERTIES));
        // Trainers are the only component, so trainer 0 is the first placed on its address: the first port.
        Placement placement = Placement.parse("""
                trainer-0 10.0.0.2 7164 n2
                trainer-1 10.0.0.3 7164 n3
                """);

        JobPlan placed = placement.apply(plan);

        assertThat(placed.replicas()).allSatisfy(replica -> assertThat(replica.env())
                .containsEntry("PADDLE_MASTER", "10.0.0.2:7164")
                .containsEntry("MASTER_ADDR", "10.0.0.2").containsEntry("MASTER_PORT", "7164")
                .containsEntry("POD_IP", replica.host())
                .containsEntry("RANK", Integer.toString(replica.index()))
                .containsEntry("NNODES", "2").containsEntry("PADDLE_NNODES", "2"));
    }

    @Test
    void linesThatAreNoSlotAreIgnoredAndNeverThrow() {
        Placement placement = Placement.parse("""
                trainer-0 127.0.0.1 notaport n1
                trainer-1 10.0.0.3 99999 n3
                pserver-0 10.0.0.1 7164
                pserver-1 $(reboot) 7166 n1
                \0\0\0
                trainer-1 10.0.0.3 7164 n3
                """);

        assertThat(placement.slots()).containsOnlyKeys("trainer-1");
        assertThat(placement.covers(plan())).isFalse();
    }

    @Test
    void aHalfWrittenPlacementCoversNotEveryReplica() {
        assertThat(Placement.parse("pserver-0 10.0.0.1 7164 n1\npserver-1 10.0").covers(plan())).isFalse();
    }
}
