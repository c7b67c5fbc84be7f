package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.backend.PySpy;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.StackDump;
import io.paddlejobs.job.StacksUnavailableException;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.HungRanks;
import io.paddlejobs.testing.PySpyInstalled;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stack dumps of a hung local job with real py-spy on real Python ({@link HungRanks}): trainer 1 blocks in a socket
 * accept while trainer 0 waits on an event, each in a function of its own, as ranks of a hung collective do.
 * Replicas are confined as where tenants share the machine (as root: each namespace's replicas run as a user of its
 * own, in bubblewrap), and py-spy runs from the service's side on their host pids. Skips without py-spy
 * ({@code -Dpyspy.path=...}, else {@code py-spy} on PATH); {@code -Dpyspy.required=true} makes that a failure.
 */
class StackDumpsTest {

    @TempDir
    Path dataRoot;

    @Test
    void aStallAndARequestDumpBothRanksNamingWhereEachWaitsAndAFinishedJobHasNoneToTake() {
        Path pySpy = PySpyInstalled.orSkip();
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot), true)) {
            local.backend.useStacks(new StackProperties(pySpy.toString(), Duration.ofSeconds(30), 20));
            JobKey key = new JobKey(LocalBackendFixture.NAMESPACE, "hung");
            local.backend.submit(local.plan(JobRequests.named("hung", HungRanks.entryPoint()).spec("stall_timeout=2s")
                    .trainers(2).mode(JobMode.COLLECTIVE).build()));

            // The stall is seen once both have printed their line and gone quiet: its dump is kept.
            await().atMost(DEADLINE).until(() -> !local.backend.stacks(key).isEmpty());
            StackDump atStall = local.backend.stacks(key).get(0);
            assertThat(atStall.trigger()).isEqualTo(StackDump.STALL);
            assertThat(atStall.attempt()).isZero();
            assertWaitsWhereItShould(atStall);

            StackDump requested = local.backend.takeStacks(key, StackDump.REQUESTED).orElseThrow();

            assertThat(requested.trigger()).isEqualTo(StackDump.REQUESTED);
            assertWaitsWhereItShould(requested);
            assertThat(local.backend.stacks(key)).as("kept, newest first").extracting(StackDump::trigger)
                    .containsExactly(StackDump.REQUESTED, StackDump.STALL);
            // The status shows the same entry points the dump found, by host pid and (in bubblewrap) namespace pid.
            Map<String, ReplicaStatus> statuses = local.job("hung").status().replicas().stream()
                    .collect(Collectors.toMap(ReplicaStatus::id, r -> r));
            for (StackDump.ReplicaStacks replica : requested.replicas()) {
                ReplicaStatus status = statuses.get(replica.replica());
                assertThat(status.pid()).as(replica.replica()).isNotNull().isEqualTo(replica.pid());
                assertThat(status.namespacePid()).isEqualTo(replica.namespacePid());
                if (local.sandbox.usesBubblewrap()) {
                    assertThat(status.namespacePid()).as("the entry point in the sandbox's PID namespace").isNotNull()
                            .isNotEqualTo(status.pid());
                    assertThat(replica.processes().get(0).namespacePid()).as("what os.getpid() says in the sandbox")
                            .isNotNull();
                }
            }

            local.backend.cancel(key);
            assertThatThrownBy(() -> local.backend.takeStacks(key, StackDump.REQUESTED))
                    .isInstanceOf(JobConflictException.class).hasMessageContaining("no trainer of job 'hung' runs now");
            assertThat(local.job("hung").status().replicas()).as("no pid once it ended").allMatch(r -> r.pid() == null);
            assertThat(local.backend.stacks(key)).as("still kept").hasSize(2);
        }
    }

    @Test
    void aPySpyThatIsNotThereIsA503NamingTheSetting() {
        var missing = new PySpy(new StackProperties("no-such-py-spy", Duration.ofSeconds(1), 1));

        assertThatThrownBy(missing::program).isInstanceOf(StacksUnavailableException.class)
                .hasMessageContaining("paddlejobs.stacks.py-spy=no-such-py-spy")
                .satisfies(e -> assertThat(((StacksUnavailableException) e).getStatusCode().value()).isEqualTo(503));
    }

    /** Each rank's main thread names the function it waits in, and the two differ where they wait. */
    private static void assertWaitsWhereItShould(StackDump dump) {
        Map<String, List<String>> mainFunctions = dump.replicas().stream().collect(Collectors.toMap(
                StackDump.ReplicaStacks::replica, StackDumpsTest::mainThreadFunctions));
        assertThat(mainFunctions).as("dump: %s", dump).containsOnlyKeys("trainer-0", "trainer-1");
        assertThat(mainFunctions.get("trainer-0")).contains("wait_for_peer").doesNotContain("accept_from_peer");
        assertThat(mainFunctions.get("trainer-1")).contains("accept_from_peer").doesNotContain("wait_for_peer");
    }

    private static List<String> mainThreadFunctions(StackDump.ReplicaStacks replica) {
        assertThat(replica.processes()).as("%s: %s", replica.replica(), replica.error()).isNotEmpty();
        StackDump.ProcessStacks python = replica.processes().get(0);
        assertThat(python.threads()).as("%s: %s", replica.replica(), python.note()).isNotEmpty();
        return python.threads().stream().filter(t -> "MainThread".equals(t.name())).findFirst().orElseThrow()
                .frames().stream().map(StackDump.Frame::function).toList();
    }
}
