package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.local.LocalBackendFixture;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collective job's trainers meet at trainer 0's master port (docs/environment.md): on the local backend
 * the others start once it listens, and a trainer 0 that never does fails its job in words. Real processes.
 */
public class RendezvousGateTest {

    /** Trainer 0's stand-in for Paddle's store: listens on the master port, says so in a file, then waits. */
    public static String listenOnMasterPort(Path saidSo) {
        return "python3 -c 'import socket, sys, time; s = socket.socket(); "
                + "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind((\"\", int(sys.argv[1]))); "
                + "s.listen(); open(sys.argv[2], \"w\").close(); time.sleep(3600)' \"$MASTER_PORT\" " + saidSo;
    }

    @TempDir
    Path dataRoot;

    @Test
    void theOtherTrainersStartOnlyOnceTrainerZeroListensOnItsMasterPort() throws Exception {
        Path listening = dataRoot.resolve("listening");
        try (var local = fixture(Duration.ofSeconds(60))) {
            // Trainer 0 takes a while before it listens (Paddle imports first); the others look for its mark.
            submit(local, "meet", 3, "if [ \"$RANK\" = 0 ]; then sleep 1; " + listenOnMasterPort(listening) + "; "
                    + "else if [ -e " + listening + " ]; then echo saw-it-listening; fi; fi");

            local.awaitPhase("meet", JobPhase.RUNNING);

            for (int trainer = 1; trainer < 3; trainer++) {
                int index = trainer;
                org.awaitility.Awaitility.await().atMost(LocalBackendFixture.DEADLINE)
                        .until(() -> local.job("meet").status().replicas().get(index).state() != ReplicaState.RUNNING
                                || local.log("meet", Role.TRAINER, index).contains("saw-it-listening"));
                assertThat(local.log("meet", Role.TRAINER, trainer)).as("trainer-%d started after trainer 0 listened",
                        trainer).contains("saw-it-listening");
            }
            assertThat(local.job("meet").status().replicas()).allSatisfy(r -> assertThat(r.startedAt()).isNotNull());
            local.backend.cancel(new io.paddlejobs.job.JobKey(LocalBackendFixture.NAMESPACE, "meet"));
        }
    }

    @Test
    void aTrainerZeroThatNeverListensFailsTheJobInWordsAndTheOthersNeverStart() {
        try (var local = fixture(Duration.ofSeconds(2))) {
            submit(local, "lonely", 2, "exec sleep 3503");

            Job failed = local.awaitPhase("lonely", JobPhase.FAILED);

            assertThat(failed.status().reason()).isEqualTo("RendezvousNotListening");
            assertThat(failed.status().message()).contains("trainer-0 did not accept connections on its master port",
                    "(PADDLE_MASTER) within 2s", "role=trainer&index=0");
            ReplicaStatus held = failed.status().replicas().stream().filter(r -> r.index() == 1).findFirst().orElseThrow();
            assertThat(held.state()).isEqualTo(ReplicaState.STOPPED);
            assertThat(held.startedAt()).as("never started").isNull();
            org.awaitility.Awaitility.await().atMost(LocalBackendFixture.DEADLINE)
                    .until(() -> !LocalBackendFixture.anyProcessWith("sleep 3503"));
        }
    }

    @Test
    void aTrainerZeroThatEndsWithoutListeningLetsTheOthersRunAsBefore() throws Exception {
        try (var local = fixture(Duration.ofSeconds(60))) {
            submit(local, "apart", 2, "echo rank-$RANK");

            Job done = local.awaitPhase("apart", JobPhase.SUCCEEDED);

            assertThat(done.status().replicas()).extracting(ReplicaStatus::state)
                    .containsOnly(ReplicaState.SUCCEEDED);
            assertThat(local.log("apart", Role.TRAINER, 1)).contains("rank-1");
        }
    }

    private LocalBackendFixture fixture(Duration rendezvousTimeout) {
        return new LocalBackendFixture(LocalBackendFixture.properties(dataRoot, "rendezvous-listen-timeout",
                rendezvousTimeout), new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)));
    }

    private static void submit(LocalBackendFixture local, String name, int trainers, String entryPoint) {
        local.backend.submit(local.plan(JobRequests.named(name, entryPoint).trainers(trainers)
                .mode(JobMode.COLLECTIVE).build()));
    }
}
