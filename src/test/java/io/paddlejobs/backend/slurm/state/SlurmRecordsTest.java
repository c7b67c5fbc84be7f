package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.planning.JobPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** Records on a directory jobs can write: what is read back, and where the service writes. */
class SlurmRecordsTest {

    private static final JsonMapper JSON = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new PlanningJsonModule()).build();

    @TempDir
    Path sharedDir;
    private Path jobsDir;

    @BeforeEach
    void layout() {
        jobsDir = sharedDir.resolve("jobs");
    }

    @Test
    void aRecordIsReadBackOnlyWhereItsJobLiesAndPlantedOnesAreRenamedAside() throws Exception {
        SlurmRecords records = new SlurmRecords(JobDirectories.under(sharedDir), JSON);
        SlurmJob job = job();
        records.save(job);
        Files.createDirectories(jobsDir.resolve("default/zz"));
        Files.writeString(jobsDir.resolve("default/zz/job.json"), "{\"slurm_id\":5,\"placed\":false,\"cancel_requested\":false}");
        Files.createDirectories(jobsDir.resolve("default/copy"));
        Files.copy(jobsDir.resolve("default/demo/job.json"), jobsDir.resolve("default/copy/job.json"));
        Files.createDirectories(jobsDir.resolve("default/fifo"));
        assertThat(new ProcessBuilder("mkfifo", jobsDir.resolve("default/fifo/job.json").toString()).start().waitFor()).isZero();

        List<SlurmJob> loaded = records.loadAll();

        assertThat(loaded).extracting(SlurmJob::key).containsExactly(job.key());
        for (String planted : List.of("zz", "copy", "fifo")) {
            try (var files = Files.list(jobsDir.resolve("default").resolve(planted))) {
                assertThat(files.map(file -> file.getFileName().toString()).toList()).as(planted)
                        .singleElement().asString().startsWith("job.json.refused-");
            }
        }
    }

    @Test
    void aJobDirectoryReplacedByALinkGetsNoRecordWrittenThroughIt() throws IOException {
        SlurmRecords records = new SlurmRecords(JobDirectories.under(sharedDir), JSON);
        Path elsewhere = Files.createDirectories(jobsDir.resolveSibling(jobsDir.getFileName() + "-elsewhere"));
        Files.createDirectories(jobsDir.resolve("default"));
        Files.createSymbolicLink(jobsDir.resolve("default/demo"), elsewhere);
        try {
            records.save(job());

            try (var files = Files.list(elsewhere)) {
                assertThat(files.toList()).isEmpty();
            }
        } finally {
            Files.delete(jobsDir.resolve("default/demo"));
            Files.delete(elsewhere);
        }
    }

    private static SlurmJob job() {
        JobPlan plan = PlacementTest.plan();
        Instant now = Instant.parse("2026-12-01T20:00:00Z");
        var tracked = new SlurmStatusMapper.Tracked(plan, now, false, List.of(), ReplicaMarks.NONE);
        return new SlurmJob(plan, 7, now, false, false, SlurmStatusMapper.map(tracked));
    }
}
