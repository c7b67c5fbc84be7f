package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the service makes, writes and deletes where jobs can write: one name at a time below a
 * directory it holds open, no link followed, whatever a job renames or replaces meanwhile.
 */
class DirectoryHandleTest {

    @TempDir
    Path root;

    @Test
    @Tag("redteam")
    void aLinkInTheMiddleOfAPathStopsTheWalkAndNothingIsMadeWhereItPoints() throws IOException {
        Path victim = Files.createDirectories(root.resolve("victim"));
        Files.createDirectories(root.resolve("shared/jobs"));
        Files.createSymbolicLink(root.resolve("shared/jobs/team-b"), victim);

        try (DirectoryHandle shared = DirectoryHandle.open(root.resolve("shared"))) {
            assertThatThrownBy(() -> shared.directories(DirectoryHandle.PRIVATE, "jobs", "team-b", "etc"))
                    .isInstanceOf(DirectoryHandle.UnusableDirectoryException.class)
                    .hasMessageContaining("jobs/team-b").hasMessageContaining("is a link");
            try (DirectoryHandle jobs = shared.directory("jobs")) {
                jobs.deleteTree("team-b"); // the link itself goes, not what it points to
            }
        }

        assertThat(victim).isEmptyDirectory();
        assertThat(root.resolve("shared/jobs/team-b")).doesNotExist();
    }

    @Test
    @Tag("redteam")
    void aDirectoryRenamedAndReplacedByALinkWhileHeldIsStillTheOneWrittenTo() throws IOException {
        Path victim = Files.createDirectories(root.resolve("victim"));
        Path namespace = Files.createDirectories(root.resolve("jobs/team-b"));

        try (DirectoryHandle top = DirectoryHandle.open(root);
             DirectoryHandle held = top.directories(DirectoryHandle.PRIVATE, "jobs", "team-b")) {
            // What a job on another node does between two steps of the service
            Files.move(namespace, root.resolve("jobs/team-b.real"));
            Files.createSymbolicLink(namespace, victim);

            try (DirectoryHandle job = held.directory("precious", DirectoryHandle.PRIVATE)) {
                job.write("launch.sh", DirectoryHandle.PRIVATE_FILE, out -> out.write("echo hi".getBytes(StandardCharsets.UTF_8)));
            }
            held.deleteTree("precious");
            held.directory("kept", DirectoryHandle.PRIVATE).close();
        }

        assertThat(victim).isEmptyDirectory();
        assertThat(root.resolve("jobs/team-b.real/kept")).isDirectory();
    }

    @Test
    void aFailedWriteLeavesThePreviousFileWholeAndNoTemporaryFile() throws IOException {
        try (DirectoryHandle dir = DirectoryHandle.open(root)) {
            dir.write("job.json", DirectoryHandle.PRIVATE_FILE, out -> out.write("before".getBytes(StandardCharsets.UTF_8)));

            assertThatThrownBy(() -> dir.write("job.json", DirectoryHandle.PRIVATE_FILE, out -> {
                out.write("half".getBytes(StandardCharsets.UTF_8));
                throw new IOException("disk full");
            })).hasMessage("disk full");

            assertThat(dir.names()).containsExactly("job.json");
        }
        assertThat(Files.readString(root.resolve("job.json"))).isEqualTo("before");
        assertThat(Files.getPosixFilePermissions(root.resolve("job.json"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aWriteDoesNotFollowALinkPlantedInPlaceOfTheFile() throws IOException {
        Path outside = Files.writeString(root.resolve("outside"), "kept");
        Path dir = Files.createDirectories(root.resolve("job"));
        Files.createSymbolicLink(dir.resolve("job.json"), outside);

        try (DirectoryHandle job = DirectoryHandle.open(dir)) {
            job.write("job.json", DirectoryHandle.PRIVATE_FILE, out -> out.write("record".getBytes(StandardCharsets.UTF_8)));
        }

        assertThat(Files.readString(outside)).isEqualTo("kept");
        assertThat(Files.isSymbolicLink(dir.resolve("job.json"))).isFalse();
        assertThat(Files.readString(dir.resolve("job.json"))).isEqualTo("record");
    }

    @Test
    void deleteTreeRemovesEverythingBelowAndNothingALinkPointsToHoweverDeep() throws IOException {
        Path outside = Files.writeString(Files.createDirectories(root.resolve("outside")).resolve("kept"), "{}");
        Path deep = root.resolve("jobs/mnist");
        for (int level = 0; level < 100; level++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Files.createSymbolicLink(deep.resolve("link"), outside.getParent());
        Files.writeString(root.resolve("jobs/mnist/d/log"), "x");

        try (DirectoryHandle jobs = DirectoryHandle.open(root.resolve("jobs"))) {
            jobs.deleteTree("mnist");
            jobs.deleteTree("mnist");
            assertThat(jobs.names()).isEmpty();
        }

        assertThat(outside).exists();
    }

    @Test
    void aMissingDirectoryIsNoSuchFileAndAFileInItsPlaceIsRefused() throws IOException {
        Files.writeString(root.resolve("team-b"), "a file");

        try (DirectoryHandle dir = DirectoryHandle.open(root)) {
            assertThatThrownBy(() -> dir.directory("missing")).isInstanceOf(NoSuchFileException.class);
            assertThatThrownBy(() -> dir.directory("team-b", DirectoryHandle.PRIVATE))
                    .isInstanceOf(DirectoryHandle.UnusableDirectoryException.class).hasMessageContaining("is not a directory");
            assertThatThrownBy(() -> dir.directory("../x")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void chownGivesTheDirectoryItselfAndNotWhatALinkPointsTo() throws IOException {
        assumeThat(Files.getAttribute(Path.of("/proc/self"), "unix:uid")).as("only root gives files away").isEqualTo(0);
        Path outside = Files.createDirectories(root.resolve("outside"));
        Path parent = Files.createDirectories(root.resolve("checkpoints"));
        Files.createSymbolicLink(parent.resolve("linked"), outside);

        try (DirectoryHandle dir = DirectoryHandle.open(parent)) {
            dir.directory("job", DirectoryHandle.PRIVATE).close();
            dir.chown("job", 1000123, 1000123);
            dir.chown("linked", 1000123, 1000123);
        }

        assertThat(Files.getAttribute(parent.resolve("job"), "unix:uid")).isEqualTo(1000123);
        assertThat(Files.getAttribute(outside, "unix:uid")).isEqualTo(0);
        try (Stream<Path> left = Files.list(outside)) {
            assertThat(left).isEmpty();
        }
    }
}
