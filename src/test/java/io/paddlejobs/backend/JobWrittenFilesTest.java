package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** What a job can put where the service reads its files, and what the service then reads: nothing that is not the job's. */
@EnabledOnOs(OS.LINUX)
class JobWrittenFilesTest {

    @TempDir
    Path dir;

    @Test
    void aRegularFileIsReadUpToTheBoundAndSaysWhetherThatWasAll() throws IOException {
        Files.writeString(dir.resolve("mark"), "0 stopped\n");

        assertThat(JobWrittenFiles.read(dir.resolve("mark"), 64)).hasValueSatisfying(content -> {
            assertThat(content.text()).isEqualTo("0 stopped\n");
            assertThat(content.whole()).isTrue();
        });
        assertThat(JobWrittenFiles.read(dir.resolve("mark"), 3)).hasValueSatisfying(content -> {
            assertThat(content.text()).isEqualTo("0 s");
            assertThat(content.whole()).isFalse();
        });
        assertThat(JobWrittenFiles.read(dir.resolve("missing"), 64)).isEmpty();
    }

    @Test
    void aLinkToAFileOutsideReadsAsNoFile() throws IOException {
        Path secret = Files.writeString(Files.createTempFile("outside", ".txt"), "SECRET-MARKER");
        try {
            Files.createSymbolicLink(dir.resolve("trainer-1.log"), secret);

            assertThat(JobWrittenFiles.read(dir.resolve("trainer-1.log"), 1024)).isEmpty();
            assertThat(LastLines.start(dir.resolve("trainer-1.log"), 1)).isZero();
        } finally {
            Files.delete(secret);
        }
    }

    @Test
    void aDirectoryOnTheWayReplacedByALinkReadsAsNoFile() throws IOException {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("trainer-0.log"), "another job's log");
        Files.createSymbolicLink(dir.resolve("logs"), elsewhere);

        assertThat(JobWrittenFiles.read(dir.toRealPath().resolve("logs/trainer-0.log"), 1024)).isEmpty();
    }

    @Test
    void aFifoNeitherBlocksNorReads() throws Exception {
        Path fifo = dir.resolve("trainer-0.started");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        var read = CompletableFuture.supplyAsync(() -> {
            try {
                return JobWrittenFiles.read(fifo, 64);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        assertThat(read.get(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS)).isEmpty();
    }

    @Test
    void aFifoSwappedInAfterTheCheckIsOpenedWithoutWaitingAndRefused() throws Exception {
        Path fifo = dir.resolve("placement");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        var opened = CompletableFuture.supplyAsync(() -> {
            try {
                return JobWrittenFiles.openChecked(fifo.toRealPath());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        assertThat(opened.get(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS)).isEmpty();
    }

    @Test
    void aLinkSwappedInAfterTheCheckIsNotFollowed() throws IOException {
        Path secret = Files.writeString(dir.resolve("secret"), "SECRET-MARKER");
        Files.createSymbolicLink(dir.resolve("trainer-0.log"), secret);

        assertThat(JobWrittenFiles.openChecked(dir.toRealPath().resolve("trainer-0.log"))).isEmpty();
        assertThat(JobWrittenFiles.openChecked(dir.toRealPath().resolve("secret"))).isPresent();
    }

    @Test
    void aLinkToADeviceThatNeverEndsReadsAsNoFile() throws IOException {
        Files.createSymbolicLink(dir.resolve("zz.exit"), Path.of("/dev/zero"));

        assertThat(JobWrittenFiles.read(dir.resolve("zz.exit"), 64)).isEmpty();
        assertThat(JobWrittenFiles.read(Path.of("/dev/zero"), 64)).as("nor the device itself").isEmpty();
    }
}
