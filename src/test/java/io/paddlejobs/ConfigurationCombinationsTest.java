package io.paddlejobs;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.api.stream.StreamProperties;
import io.paddlejobs.config.PlanningProperties;
import io.paddlejobs.history.HistoryProperties;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.BackendProperties.Kind;
import io.paddlejobs.metrics.MetricsProperties;
import io.paddlejobs.testing.Settings;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * Settings that are each fine alone but hurt together (the code review of 6 Dec, section 4) are refused at start,
 * naming both keys and what to change; the shipped defaults pass every check. The checks are the ones the
 * configurations call before they make their beans.
 */
class ConfigurationCombinationsTest {

    @Test
    void aPerCallerStreamCapNearTheTotalIsRefusedNamingBothSettings() {
        StreamProperties fourCallersTakeAll = Settings.of(StreamProperties.class, "max-open", 4096, "max-open-per-user", 1024);

        assertThatThrownBy(fourCallersTakeAll::requireFairShare).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.streams.max-open-per-user=1024")
                .hasMessageContaining("paddlejobs.streams.max-open=4096")
                .hasMessageContaining("4 callers at their cap")
                .hasMessageContaining("at most 256");
    }

    @Test
    void aPerCallerStreamCapOfASixteenthOrLessStarts() {
        assertThatCode(() -> Settings.defaults(StreamProperties.class).requireFairShare()).doesNotThrowAnyException();
        assertThatCode(() -> Settings.of(StreamProperties.class, "max-open", 64, "max-open-per-user", 4).requireFairShare())
                .doesNotThrowAnyException();
    }

    @Test
    void onKubernetesMoreTrainersThanAreFollowedIsRefusedNamingBothSettings() {
        MetricsProperties followed = Settings.of(MetricsProperties.class, "trainers-followed", 64);

        assertThatThrownBy(() -> followed.requireEveryTrainerHeard(Kind.KUBERNETES, 100))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.limits.max-trainers=100")
                .hasMessageContaining("paddlejobs.metrics.trainers-followed=64")
                .hasMessageContaining("at least 100");
    }

    @Test
    void everyTrainerFollowedOrABackendThatHearsTrainersByTheirLogFilesStarts() {
        MetricsProperties followed = Settings.of(MetricsProperties.class, "trainers-followed", 64);

        assertThatCode(() -> followed.requireEveryTrainerHeard(Kind.KUBERNETES, 64)).doesNotThrowAnyException();
        assertThatCode(() -> followed.requireEveryTrainerHeard(Kind.LOCAL, 100)).doesNotThrowAnyException();
        assertThatCode(() -> followed.requireEveryTrainerHeard(Kind.SLURM, 100)).doesNotThrowAnyException();
    }

    @Test
    void aHistoryWhoseOneJobsLogsOutgrowTheFreeSpaceFloorIsRefusedNamingBothSettings() {
        HistoryProperties bigLogs = Settings.of(HistoryProperties.class, "max-log-size", "64MB");
        PlanningProperties.Limits limits = Settings.defaults(PlanningProperties.class).limits();
        DataSize floor = Settings.defaults(BackendProperties.class).minFreeSpace();

        assertThatThrownBy(() -> bigLogs.requireFloorHoldsOneJobsLogs(limits, floor)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.history.max-log-size=64MB")
                .hasMessageContaining("paddlejobs.min-free-space=512MB")
                .hasMessageContaining("128 replicas")
                .hasMessageContaining("at least 8192 MB");
    }

    @Test
    void theShippedHistoryAndFloorStartAndSoDoesAFloorRaisedWithTheLogs() {
        PlanningProperties.Limits limits = Settings.defaults(PlanningProperties.class).limits();

        assertThatCode(() -> Settings.defaults(HistoryProperties.class).requireFloorHoldsOneJobsLogs(limits,
                Settings.defaults(BackendProperties.class).minFreeSpace())).doesNotThrowAnyException();
        assertThatCode(() -> Settings.of(HistoryProperties.class, "max-log-size", "64MB").requireFloorHoldsOneJobsLogs(
                limits, DataSize.ofGigabytes(8))).doesNotThrowAnyException();
    }
}
