package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.util.unit.DataSize;

/** Tenants' jobs on Slurm share one Unix user and directory: modes with tenants start only when the operator accepts that. */
class SlurmTenancyTest {

    @ParameterizedTest
    @ValueSource(strings = {"token", "kubernetes"})
    void modesWithTenantsRefuseToStartUnlessSharedFilesAreAccepted(String mode) {
        assertThatThrownBy(() -> properties(false).requireSharedFilesAccepted(mode))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.security.mode=" + mode)
                .hasMessageContaining("could read and change the others' files")
                .hasMessageContaining("paddlejobs.slurm.allow-shared-files=true");

        assertThatCode(() -> properties(true).requireSharedFilesAccepted(mode)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void withoutTenantsThereIsNothingToAccept(boolean allowSharedFiles) {
        assertThatCode(() -> properties(allowSharedFiles).requireSharedFilesAccepted("none")).doesNotThrowAnyException();
    }

    private static SlurmProperties properties(boolean allowSharedFiles) {
        return new SlurmProperties(SlurmProperties.ClientKind.CLI, Path.of("/shared"), "", "", Duration.ZERO,
                Duration.ofSeconds(1), "/usr/bin:/bin", "", URI.create("http://127.0.0.1:6820"), "slurm", null,
                DataSize.ofMegabytes(64), allowSharedFiles);
    }
}
