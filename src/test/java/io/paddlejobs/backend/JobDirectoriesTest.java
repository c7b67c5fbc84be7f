package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job directory layout both file-keeping backends use: where records are, how they are replaced and removed. */
class JobDirectoriesTest {

    @TempDir
    Path root;

    @Test
    void recordsAreFoundOnlyAtANamespaceAndJobDepth() throws IOException {
        JobDirectories directories = JobDirectories.under(root);
        Path kept = write(directories.jobDir(new JobKey("team-a", "mnist")).resolve("job.json"));
        write(directories.jobs().resolve("team-a/job.json"));
        write(directories.jobs().resolve("team-a/mnist/work/job.json"));

        assertThat(directories.records()).containsExactly(kept);
        assertThat(directories.storageDir("team-a")).isEqualTo(root.resolve("storage/team-a"));
        assertThat(JobDirectories.under(root.resolve("never-made")).records()).isEmpty();
    }

    @Test
    void aFailedReplaceLeavesThePreviousFileWholeAndNoTemporaryFile() throws IOException {
        Path record = Files.writeString(root.resolve("job.json"), "before");

        assertThatThrownBy(() -> JobDirectories.replace(record, temp -> {
            Files.writeString(temp, "half");
            throw new IOException("disk full");
        })).hasMessage("disk full");
        JobDirectories.replace(record, temp -> Files.writeString(temp, "after"));

        try (var files = Files.list(root)) {
            assertThat(files.toList()).containsExactly(record);
        }
        assertThat(Files.readString(record)).isEqualTo("after");
    }

    @Test
    void deleteTreeRemovesEverythingBelowButNotWhatALinkPointsTo() throws IOException {
        Path outside = write(root.resolve("outside/kept"));
        Path dir = root.resolve("jobs/team-a/mnist");
        write(dir.resolve("logs/trainer-0.log"));
        Files.createSymbolicLink(dir.resolve("link"), outside.getParent());

        JobDirectories.deleteTree(dir);
        JobDirectories.deleteTree(dir);

        assertThat(dir).doesNotExist();
        assertThat(outside).exists();
    }

    private static Path write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "{}");
    }
}
