package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.testing.Settings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        return Settings.of(SlurmProperties.class, "shared-dir", "/shared", "allow-shared-files", allowSharedFiles);
    }
}
