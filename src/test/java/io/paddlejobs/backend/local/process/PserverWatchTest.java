package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.local.LocalBackendFixture;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobPhase;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paddle's trainers wait for their pservers forever; the local backend does not. */
class PserverWatchTest {

    @TempDir
    Path dataRoot;

    LocalBackendFixture local;

    @BeforeEach
    void backend() {
        local = new LocalBackendFixture(dataRoot, 4, Duration.ofSeconds(3));
    }

    @AfterEach
    void close() {
        local.close();
    }

    @Test
    void aPserverThatNeverListensFailsItsJobAtTheTimeoutNamingIt() {
        String marker = "sleep 3201";
        local.submit("silent", marker, 1, 1);

        Job job = local.awaitPhase("silent", JobPhase.FAILED);

        assertThat(job.status().reason()).isEqualTo("PserverNotListening");
        assertThat(job.status().message()).contains("pserver-0", "127.0.0.1:", "within 3s", "role=pserver&index=0");
        await().atMost(DEADLINE).until(() -> !anyProcessWith(marker));
    }

    @Test
    void pserversThatListenKeepTheirJobRunningPastTheTimeout() throws Exception {
        // A timeout a loaded machine's python start-up cannot miss (3 s did once in CI); trainers run past it.
        try (var roomy = new LocalBackendFixture(dataRoot.resolve("roomy"), 4, Duration.ofSeconds(8))) {
            // Each pserver listens on POD_IP:PADDLE_PORT, as Paddle's do, and as servers do it takes a port
            // that an earlier test's closed connections still hold in TIME_WAIT (CI once failed to bind).
            String listen = "python3 -c \"import socket,time; s=socket.socket(); "
                    + "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('$POD_IP', $PADDLE_PORT)); "
                    + "s.listen(); time.sleep(3202)\"";
            roomy.submit("listening", "if [ \"$TRAINING_ROLE\" = PSERVER ]; then " + listen + "; else sleep 10; fi", 2, 1);

            Job job = roomy.awaitPhase("listening", JobPhase.SUCCEEDED);

            assertThat(job.status().reason()).isEqualTo("Completed");
        }
    }

    @Test
    void aPserverThatExitsZeroIsNotWatchedAnyMore() {
        local.submit("quick", "if [ \"$TRAINING_ROLE\" = PSERVER ]; then exit 0; else sleep 5; fi", 1, 1);

        Job job = local.awaitPhase("quick", JobPhase.SUCCEEDED);

        assertThat(job.status().reason()).isEqualTo("Completed");
    }
}
