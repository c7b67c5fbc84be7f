package io.paddlejobs.backend.local;

import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobBackendContract;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.testing.MovableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The port's contract on the local backend: each replica a real process, on a data root of the test's own.
 * Its backoffs are on a clock the test moves: they pass when the test says, never by themselves, so a
 * cancel during one cannot race its end. LocalRestartsTest keeps backoffs on the wall clock.
 */
class LocalJobBackendContractTest extends JobBackendContract {

    /** Far longer than any test: only the test's move of the clock ends it. */
    private static final RestartBackoff MOVED_PAST = new RestartBackoff(Duration.ofHours(1), Duration.ofHours(1));
    /** How often the backend looks at its clock during a backoff (ReplicaLauncher), and a margin. */
    private static final Duration LOOKS_WITHIN = Duration.ofSeconds(2);

    @TempDir
    Path dataRoot;

    private final MovableClock clock = MovableClock.runningFromNow();
    private LocalBackendFixture local;
    /** In every replica's command line, so the test can tell this test's processes from everyone else's. */
    private final String marker = "contract-" + UUID.randomUUID();

    @BeforeEach
    void start() {
        local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot, "max-running-jobs", 4), MOVED_PAST, clock);
    }

    @Override
    protected void backoffPasses(JobKey key, int attempt) {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> backend().find(key)
                .map(job -> RestartDecision.RESTARTING.equals(job.status().reason()) && job.status().restarts() == attempt)
                .orElse(false));
        clock.advance(MOVED_PAST.before(attempt));
    }

    @Override
    protected Duration cancelledBackoffPasses() {
        clock.advance(MOVED_PAST.before(1));
        return LOOKS_WITHIN;
    }

    @Override
    protected void afterJobsDeleted() {
        local.close();
    }

    @Override
    protected JobBackend backend() {
        return local.backend;
    }

    @Override
    protected String namespace() {
        return LocalBackendFixture.NAMESPACE;
    }

    @Override
    protected JobPlan plan(String name, Act act) {
        // "& wait" keeps the shell, and with it the marker, alive as long as what it started
        String run = switch (act.kind()) {
            case KEEPS_RUNNING -> "sleep 600 & wait";
            case TRAINER_EXITS -> "if [ \"$TRAINING_ROLE\" = TRAINER ]; then exit " + act.n() + "; fi; sleep 600 & wait";
            case TRAINER_PRINTS -> "if [ \"$TRAINING_ROLE\" = TRAINER ]; then for i in $(seq " + act.n()
                    + "); do echo line $i; done; exit 0; fi; sleep 600 & wait";
            case TRAINER_FAILS_THE_FIRST_ATTEMPT -> "if [ \"$TRAINING_ROLE\" = TRAINER ]; then"
                    + " [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ] && exit 1; exit 0; fi; sleep 600 & wait";
        };
        return local.plan(LocalBackendFixture.request(name, run + " # " + marker + "-" + name, 1, 1));
    }

    @Override
    protected boolean anyReplicaRunning(JobKey key) {
        return LocalBackendFixture.anyProcessWith(marker + "-" + key.name());
    }
}
