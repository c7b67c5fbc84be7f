package io.paddlejobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SeriesTest {

    static final Instant T = Instant.parse("2026-12-01T09:00:00Z");

    @Test
    void fullSeriesThinsOlderPointsKeepingTheFirstAndTheLast() {
        Series series = new Series(10);
        for (long step = 0; step < 1000; step++) {
            series.add(step, step * 0.5, T, 0, step + 1);
        }

        var points = series.since(0);
        assertThat(points).hasSizeLessThanOrEqualTo(10).hasSizeGreaterThanOrEqualTo(5);
        assertThat(points.get(0).step()).isZero();
        assertThat(points.get(points.size() - 1).step()).isEqualTo(999);
        assertThat(points.get(points.size() - 1).value()).isEqualTo(499.5);
        assertThat(points).isSortedAccordingTo((a, b) -> Long.compare(a.step(), b.step()));
    }

    @Test
    void sinceGivesOnlyThePointsAddedAfterTheSequenceNumber() {
        Series series = new Series(100);
        series.add(1, 1.0, T, 0, 5);
        series.add(2, 2.0, T, 0, 9);
        series.add(3, 3.0, T, 0, 12);

        assertThat(series.since(9)).extracting(MetricPoint::step).containsExactly(3L);
        assertThat(series.since(4)).extracting(MetricPoint::step).containsExactly(1L, 2L, 3L);
        assertThat(series.since(12)).isEmpty();
    }

    @Test
    void stepNotAboveTheLastIsARepeatAndNotAdded() {
        Series series = new Series(100);
        assertThat(series.add(1, 1.0, T, 0, 1)).isTrue();
        assertThat(series.add(2, 2.0, T, 0, 2)).isTrue();

        assertThat(series.add(2, 9.0, T, 0, 3)).isFalse();
        assertThat(series.add(1, 9.0, T, 0, 4)).isFalse();
        assertThat(series.since(0)).extracting(MetricPoint::value).containsExactly(1.0, 2.0);
    }
}
