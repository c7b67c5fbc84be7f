package io.paddlejobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class JobMetricsTest {

    static final Instant T = Instant.parse("2026-12-01T09:00:00Z");

    static MetricsProperties limits(int seriesPerJob) {
        return new MetricsProperties(1000, seriesPerJob, 64, 200);
    }

    @Test
    void reportsAreKeptPerMetricAndReplicaInReplicaOrder() {
        JobMetrics metrics = new JobMetrics(limits(64), T);
        metrics.read("trainer-10", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.9}", T);
        metrics.read("trainer-2", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.8, \"acc\": 0.1}", T);
        metrics.read("trainer-2", "pass 1 loss 0.8", T);

        var snapshot = metrics.since(0);
        assertThat(snapshot.metrics().keySet()).containsExactly("acc", "loss");
        assertThat(snapshot.metrics().get("loss").keySet()).containsExactly("trainer-2", "trainer-10");
        assertThat(snapshot.metrics().get("loss").get("trainer-2")).containsExactly(new MetricPoint(1, 0.8, T, 0));
        assertThat(snapshot.cursor()).isEqualTo(3);
        assertThat(snapshot.ignoredLines()).isZero();
    }

    @Test
    void eachPointCarriesTheAttemptWhoseOutputReportedItAndOneKeptBeforeAttemptsWereRecordedReadsZero() {
        JobMetrics metrics = new JobMetrics(limits(64), T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 70}", T, 0);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.3}", T, 1);

        assertThat(metrics.since(0).metrics().get("loss").get("trainer-0")).extracting(MetricPoint::attempt)
                .containsExactly(0, 1);
        assertThat(JsonMapper.builder().build().readValue("{\"step\": 1, \"value\": 0.5, \"time\": \"2026-12-01T09:00:00Z\"}",
                MetricPoint.class)).isEqualTo(new MetricPoint(1, 0.5, T, 0));
    }

    @Test
    void readSinceACursorGivesOnlyWhatCameAfterIt() {
        JobMetrics metrics = new JobMetrics(limits(64), T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.9}", T);
        long cursor = metrics.since(0).cursor();
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.5}", T);

        var later = metrics.since(cursor);
        assertThat(later.metrics().get("loss").get("trainer-0")).extracting(MetricPoint::step).containsExactly(2L);
        assertThat(metrics.since(later.cursor()).metrics()).isEmpty();
    }

    @Test
    void cursorFromAnEarlierLifeOfTheServiceGetsEverything() {
        JobMetrics metrics = new JobMetrics(limits(64), T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.9}", T);

        assertThat(metrics.since(500).metrics().get("loss").get("trainer-0")).hasSize(1);
    }

    @Test
    void malformedReportsAndSeriesBeyondTheLimitAreCountedAsIgnored() {
        JobMetrics metrics = new JobMetrics(limits(2), T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": \"low\"}", T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1, \"acc\": 2}", T);
        metrics.read("trainer-1", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1}", T);

        var snapshot = metrics.since(0);
        assertThat(snapshot.ignoredLines()).isEqualTo(2);
        assertThat(snapshot.metrics().get("loss")).containsOnlyKeys("trainer-0");
    }

    @Test
    void aReportWithoutTheSpaceAfterTheMarkerIsCountedAsIgnoredNotPassedOver() {
        JobMetrics metrics = new JobMetrics(limits(8), T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS{\"step\": 1, \"loss\": 1}", T);
        metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1} step 2/9 [==>...]", T);

        assertThat(metrics.since(0).ignoredLines()).isEqualTo(2);
    }

    @Test
    void aReportSaysWhetherItTookTheTrainerToANewStep() {
        JobMetrics metrics = new JobMetrics(limits(8), T);

        assertThat(metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1}", T)).isTrue();
        assertThat(metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1}", T)).isFalse();
        assertThat(metrics.read("trainer-0", "PADDLEJOBS_METRICS {\"step\": 2, \"total_steps\": 9}", T)).isTrue();
        assertThat(metrics.read("trainer-0", "step 3 of 9", T)).isFalse();
    }
}
