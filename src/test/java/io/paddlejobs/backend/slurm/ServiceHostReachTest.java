package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How the service sees that jobs run as its own user can reach it (red team, 7 Dec, P2): from what the host says. */
@Tag("redteam")
class ServiceHostReachTest {

    /** Two nodes as {@code scontrol -o show node} lists them (shortened). */
    private static final String NODES = """
            NodeName=gpu1 Arch=x86_64 CoresPerSocket=1 CPUAlloc=0 NodeAddr=10.0.0.11 NodeHostName=gpu1 Version=22.05.8
            NodeName=login-2 Arch=x86_64 CoresPerSocket=1 CPUAlloc=0 NodeAddr=10.0.0.2 NodeHostName=Login-2.example Version=22.05.8
            """;
    private static final String MOUNTS = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            40 22 0:45 / /home rw,relatime shared:20 - nfs4 fs:/export/home rw,vers=4.2
            41 40 8:2 / /home/local rw,relatime shared:21 - xfs /dev/sdb1 rw
            42 22 0:46 / /scratch\\040space rw,relatime - lustre mds@tcp:/scratch rw
            """;

    @Test
    void aNodeIsThisHostWhenItsNameHostNameOrAddressIsOneOfThisHosts() {
        assertThat(ServiceHostReach.nodeOnThisHost(NODES, Set.of("10.0.0.2"))).contains("login-2");
        assertThat(ServiceHostReach.nodeOnThisHost(NODES, Set.of("login-2.example"))).contains("login-2");
        assertThat(ServiceHostReach.nodeOnThisHost(NODES, Set.of("gpu1"))).contains("gpu1");
        assertThat(ServiceHostReach.nodeOnThisHost(NODES, Set.of("submit", "10.0.0.1", "127.0.0.1"))).isEmpty();
        assertThat(ServiceHostReach.nodeOnThisHost("", Set.of("localhost"))).isEmpty();
    }

    @Test
    void aHomeOnANetworkFileSystemIsSeenByTheMountThatHoldsIt() {
        assertThat(ServiceHostReach.networkFileSystemOf(Path.of("/home/svc"), MOUNTS)).contains("nfs4");
        assertThat(ServiceHostReach.networkFileSystemOf(Path.of("/home/local/svc"), MOUNTS)).isEmpty();
        assertThat(ServiceHostReach.networkFileSystemOf(Path.of("/scratch space/svc"), MOUNTS)).contains("lustre");
        assertThat(ServiceHostReach.networkFileSystemOf(Path.of("/var/lib/svc"), MOUNTS)).isEmpty();
    }

    @Test
    void bothWaysAreSaidTogether() {
        assertThat(ServiceHostReach.of(NODES, Set.of("gpu1"), Path.of("/home/svc"), MOUNTS)).hasValueSatisfying(why ->
                assertThat(why).contains("this host is the cluster's node gpu1").contains("/home/svc")
                        .contains("network file system (nfs4)"));
        assertThat(ServiceHostReach.of(NODES, Set.of("submit"), Path.of("/var/lib/svc"), MOUNTS)).isEmpty();
    }

    @Test
    void thisHostIsKnownByItsLoopbackNamesAmongOthers() {
        assertThat(ServiceHostReach.thisHost()).contains("localhost", "127.0.0.1");
    }
}
