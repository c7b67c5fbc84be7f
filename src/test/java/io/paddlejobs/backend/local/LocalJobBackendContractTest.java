package io.paddlejobs.backend.local;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobBackendContract;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The port's contract on the local backend: each replica a real process, on a data root of the test's own. */
class LocalJobBackendContractTest extends JobBackendContract {

    @TempDir
    Path dataRoot;

    private LocalBackendFixture local;
    /** In every replica's command line, so the test can tell this test's processes from everyone else's. */
    private final String marker = "contract-" + UUID.randomUUID();

    @BeforeEach
    void start() {
        local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot, "max-running-jobs", 4), BACKOFF);
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
