package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.testing.Settings;
import org.junit.jupiter.api.Tag;
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

    /**
     * The Slurm red team's M1: under one Slurm user nothing of Slurm's keeps tenants apart, and the start-up
     * says so, naming that user, rather than present the allow-lists as enforced.
     */
    @ParameterizedTest
    @ValueSource(strings = {"token", "kubernetes"})
    @Tag("redteam")
    void withTenantsTheStartUpSaysAnyJobCanStopAnyOtherAndTheAllowListsAreAdvisory(String mode) {
        SlurmProperties rest = Settings.of(SlurmProperties.class, "shared-dir", "/shared", "allow-shared-files", true,
                "client", "rest", "rest-user", "paddle");

        assertThat(rest.sharedUserNotice(mode)).hasValueSatisfying(notice -> assertThat(notice)
                .contains("the one Slurm user paddle").contains("can cancel, hold or change any other tenant's Slurm jobs")
                .contains("advisory"));
        assertThat(rest.sharedUserNotice("none")).isEmpty();
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
