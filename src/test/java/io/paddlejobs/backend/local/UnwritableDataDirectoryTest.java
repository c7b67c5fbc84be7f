package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.record.DataDirectoryUnwritableException;
import io.paddlejobs.backend.local.record.StorageFullException;
import io.paddlejobs.backend.local.schedule.DiskSpace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.problem.ProblemType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;
import org.springframework.web.ErrorResponseException;

/**
 * A data directory the service may not write is the operator's to fix: 503 naming the cause, not a
 * full disk's 507 that tells the caller to delete jobs. Nothing is left behind either way.
 */
class UnwritableDataDirectoryTest {

    private static final JobKey KEY = new JobKey("default", "refused");

    @TempDir
    Path dataRoot;

    @Test
    void aPermissionDeniedOnTheWayToDiskIsA503ThatSaysSo() {
        var disk = new DiskSpace(dataRoot, DataSize.ofBytes(0));
        var denied = new UncheckedIOException("cannot write the record of job refused",
                new AccessDeniedException(dataRoot.resolve("default/refused/job.json").toString()));

        RuntimeException answer = disk.refusal(KEY, denied);

        assertThat(answer).isInstanceOf(DataDirectoryUnwritableException.class);
        ErrorResponseException problem = (ErrorResponseException) answer;
        assertThat(problem.getStatusCode().value()).isEqualTo(503);
        assertThat(problem.getBody().getType()).isEqualTo(ProblemType.DATA_DIRECTORY_UNWRITABLE.uri());
        assertThat(problem.getBody().getDetail()).contains("permission denied", "paddlejobs.local.data-root")
                .doesNotContain(dataRoot.toString());
    }

    @Test
    void anyOtherWriteFailureStaysTheFullDisksAnswer() {
        var disk = new DiskSpace(dataRoot, DataSize.ofBytes(0));

        RuntimeException answer = disk.refusal(KEY, new UncheckedIOException(new IOException("No space left on device")));

        assertThat(answer).isInstanceOf(StorageFullException.class);
        assertThat(((StorageFullException) answer).getStatusCode().value()).isEqualTo(507);
    }

    /** What a disk does after an I/O error: the kernel remounts it read-only under the running service. */
    @Test
    void aDataDirectoryRemountedReadOnlyRefusesSubmitsWithA503AndTakesThemAgainOnceWritable() throws Exception {
        assumeThat(new com.sun.security.auth.module.UnixSystem().getUid()).as("mounting a tmpfs needs root").isZero();
        Path mounted = dataRoot.resolve("disk");
        Files.createDirectories(mounted);
        assumeThat(run("mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", mounted.toString())).as("tmpfs mounted").isZero();
        try (var local = new LocalBackendFixture(LocalBackendFixture.properties(mounted.resolve("data")), false)) {
            assertThat(run("mount", "-o", "remount,ro", mounted.toString())).isZero();

            assertThatThrownBy(() -> local.submit("refused", "echo hello", 1, 1))
                    .isInstanceOf(DataDirectoryUnwritableException.class)
                    .hasMessageContaining("read-only");
            assertThat(local.backend.find(KEY)).isEmpty();

            assertThat(run("mount", "-o", "remount,rw", mounted.toString())).isZero();
            assertThat(local.submit("refused", "echo hello", 1, 1).key()).isEqualTo(KEY);
            local.backend.delete(KEY);
        } finally {
            run("umount", "-l", mounted.toString());
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
