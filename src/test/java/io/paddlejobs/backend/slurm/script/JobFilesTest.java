package io.paddlejobs.backend.slurm.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The marks the service writes for a job's replicas on the shared directory. */
class JobFilesTest {

    @TempDir
    Path shared;

    /** launch.sh waits for {@code hold-over} in its own attempt's state directory ({@code STATE_DIR}). */
    @Test
    void aHoldIsEndedInItsAttemptsOwnStateDirectory() {
        JobFiles files = new JobFiles(shared, new JobKey("default", "demo"));
        files.prepare(PlacementTest.plan());
        files.prepareAttempt(2);

        files.endHold(2);

        assertThat(files.stateDir(2).resolve("hold-over")).isRegularFile();
        assertThat(files.stateDir(0).resolve("hold-over")).as("not the first attempt's").doesNotExist();
        files.endHold(0);
        assertThat(files.stateDir(0).resolve("hold-over")).isRegularFile();
    }
}
