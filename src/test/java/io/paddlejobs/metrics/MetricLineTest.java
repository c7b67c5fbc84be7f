package io.paddlejobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class MetricLineTest {

    @Test
    void reportLineGivesItsStepAndEveryValue() {
        var line = MetricLine.parse("PADDLEJOBS_METRICS {\"step\": 3, \"loss\": 0.35, \"acc\": 1, \"eval.top_1\": 2.5e-1}");

        assertThat(line).hasValue(new MetricLine(3, Map.of("loss", 0.35, "acc", 1.0, "eval.top_1", 0.25)));
    }

    @Test
    void nonFiniteValuesAreLeftOutAndTheRestKept() {
        var line = MetricLine.parse("PADDLEJOBS_METRICS {\"step\": 7, \"loss\": NaN, \"grad\": Infinity, \"lr\": 0.1}");

        assertThat(line).hasValue(new MetricLine(7, Map.of("lr", 0.1)));
    }

    @Test
    void totalStepsIsReadApartFromTheValuesAndMayComeAlone() {
        assertThat(MetricLine.parse("PADDLEJOBS_METRICS {\"step\": 3, \"total_steps\": 80, \"loss\": 0.5}"))
                .hasValue(new MetricLine(3, 80L, Map.of("loss", 0.5)));
        assertThat(MetricLine.parse("PADDLEJOBS_METRICS {\"step\": 3, \"total_steps\": 80}"))
                .hasValue(new MetricLine(3, 80L, Map.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "pass 3 loss 0.35",
        "PADDLEJOBS_METRICS",
        "PADDLEJOBS_METRICS  {\"step\": 1, \"loss\": 1}x",
        "PADDLEJOBS_METRICS{\"step\": 1, \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1}",
        "PADDLEJOBS_METRICS {\"step\": -1, \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1.5, \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": \"1\", \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": \"low\"}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": NaN}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"1loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"lo ss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1} {\"step\": 2, \"loss\": 1}",
        "PADDLEJOBS_METRICS [1, 2]",
        "PADDLEJOBS_METRICS {\"step\": 99999999999999999999, \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"total_steps\": 0, \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"total_steps\": 2.5, \"loss\": 1}",
        "PADDLEJOBS_METRICS {\"step\": 1, \"total_steps\": \"100\"}",
    })
    void lineThatBreaksTheFormatIsNoReport(String text) {
        assertThat(MetricLine.parse(text)).isEmpty();
    }
}
