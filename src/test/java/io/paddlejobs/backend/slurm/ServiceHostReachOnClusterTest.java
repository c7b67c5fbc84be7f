package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.slurm.client.SlurmCli;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test cluster's nodes run on this host (slurmd on loopback), as where a service with {@code client=cli} shares
 * its host with the jobs (red team, 7 Dec, P2): the real {@code scontrol}'s listing says so, so that such a service
 * with tenants refuses to start ({@link SlurmTenancyTest}).
 */
@Tag("slurm")
@Tag("redteam")
@ExtendWith(SlurmCluster.class)
class ServiceHostReachOnClusterTest {

    @Test
    void theTestClustersNodesAreSeenToRunOnThisHost() {
        SlurmCli cli = new SlurmCli(SlurmCluster.current().slurmConf(), SlurmCluster.current().binDir());

        assertThat(ServiceHostReach.here(cli)).hasValueSatisfying(why ->
                assertThat(why).startsWith("this host is the cluster's node n"));
    }
}
