package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job directory layout both file-keeping backends use: where records are, and that its trees are the service's alone. */
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
    void keepPrivateMakesTheTreesTheServicesAloneAndRefusesALinkInPlaceOfOne() throws IOException {
        Path jobs = Files.createDirectories(root.resolve("jobs"));
        Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxr-xr-x")); // as an earlier version left it
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(root.resolve("linked"), elsewhere);

        JobDirectories.keepPrivate(root, "jobs", "storage");

        assertThat(Files.getPosixFilePermissions(jobs)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(root.resolve("storage"))).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThatThrownBy(() -> JobDirectories.keepPrivate(root, "linked"))
                .isInstanceOf(DirectoryHandle.UnusableDirectoryException.class).hasMessageContaining("is a link");
        assertThat(Files.getPosixFilePermissions(elsewhere)).isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static Path write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "{}");
    }
}
