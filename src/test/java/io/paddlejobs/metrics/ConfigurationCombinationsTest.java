package io.paddlejobs.metrics;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.job.BackendProperties.Kind;
import org.junit.jupiter.api.Test;

/** Settings that together would misjudge jobs are refused at start, saying which to change. */
class ConfigurationCombinationsTest {

    @Test
    void onKubernetesMoreTrainersThanAreFollowedIsRefusedNamingBothSettings() {
        assertThatThrownBy(() -> MetricsConfig.requireEveryTrainerHeard(Kind.KUBERNETES, 100, 64))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.limits.max-trainers=100")
                .hasMessageContaining("paddlejobs.metrics.trainers-followed=64")
                .hasMessageContaining("at least 100");
    }

    @Test
    void everyTrainerFollowedOrABackendThatHearsTrainersByTheirLogFilesStarts() {
        assertThatCode(() -> MetricsConfig.requireEveryTrainerHeard(Kind.KUBERNETES, 64, 64)).doesNotThrowAnyException();
        assertThatCode(() -> MetricsConfig.requireEveryTrainerHeard(Kind.LOCAL, 100, 64)).doesNotThrowAnyException();
        assertThatCode(() -> MetricsConfig.requireEveryTrainerHeard(Kind.SLURM, 100, 64)).doesNotThrowAnyException();
    }
}
