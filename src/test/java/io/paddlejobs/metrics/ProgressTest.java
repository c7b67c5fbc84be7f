package io.paddlejobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.Progress;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A job's progress from its trainers' reports: the slowest trainer's step, its rate, and the time left. */
class ProgressTest {

    static final Instant T = Instant.parse("2026-12-01T09:00:00Z");

    private final JobMetrics metrics = new JobMetrics(JobMetricsTest.limits(64), T);

    private void report(String trainer, long step, String more, Duration at) {
        metrics.read(trainer, "PADDLEJOBS_METRICS {\"step\": " + step + more + "}", T.plus(at));
    }

    @Test
    void theSlowestTrainersStepOfTheTotalWithTheRateAndTimeLeftAtThatRate() {
        for (int step = 1; step <= 5; step++) {
            report("trainer-0", step * 2L, ", \"total_steps\": 100, \"loss\": 1", Duration.ofSeconds(step));
            report("trainer-1", step, ", \"total_steps\": 100, \"loss\": 1", Duration.ofSeconds(step));
        }

        Progress progress = metrics.progress().orElseThrow();

        assertThat(progress.trainer()).isEqualTo("trainer-1");
        assertThat(progress.step()).isEqualTo(5);
        assertThat(progress.totalSteps()).isEqualTo(100);
        assertThat(progress.fraction()).isEqualTo(0.05);
        assertThat(progress.stepsPerSecond()).isEqualTo(1.0);
        assertThat(progress.etaSeconds()).isEqualTo(95);
        assertThat(metrics.since(0).progress()).isEqualTo(progress);
    }

    @Test
    void withoutATotalOnlyTheStepAndItsRate() {
        report("trainer-0", 10, ", \"loss\": 1", Duration.ZERO);
        report("trainer-0", 30, ", \"loss\": 1", Duration.ofSeconds(4));

        Progress progress = metrics.progress().orElseThrow();

        assertThat(progress).isEqualTo(new Progress(30, null, null, 5.0, null, "trainer-0"));
    }

    @Test
    void theRateFollowsTheRecentStepsOnly() {
        for (int step = 1; step <= StepRate.WINDOW; step++) {
            report("trainer-0", step, ", \"total_steps\": 1000", Duration.ofSeconds(10L * step));
        }
        long slowUntil = 10L * StepRate.WINDOW;
        for (int step = StepRate.WINDOW + 1; step <= 2 * StepRate.WINDOW; step++) {
            report("trainer-0", step, ", \"loss\": 1", Duration.ofSeconds(slowUntil + (step - StepRate.WINDOW)));
        }

        assertThat(metrics.progress().orElseThrow().stepsPerSecond()).isEqualTo(1.0);
        assertThat(metrics.progress().orElseThrow().totalSteps()).isEqualTo(1000);
    }

    @Test
    void linesReadInOneBurstGiveNoRate() {
        for (int step = 1; step <= 8; step++) {
            report("trainer-0", step, ", \"total_steps\": 8", Duration.ofMillis(step));
        }

        Progress progress = metrics.progress().orElseThrow();

        assertThat(progress.stepsPerSecond()).isNull();
        assertThat(progress.etaSeconds()).isNull();
        assertThat(progress.fraction()).isEqualTo(1.0);
    }

    @Test
    void aTrainerWithoutATotalIsMeasuredAgainstAnothersAndARepeatedStepIsNotCounted() {
        report("trainer-0", 40, ", \"total_steps\": 50", Duration.ZERO);
        report("trainer-1", 20, ", \"loss\": 1", Duration.ZERO);
        report("trainer-1", 25, ", \"loss\": 1", Duration.ofSeconds(5));
        report("trainer-1", 3, ", \"loss\": 1", Duration.ofSeconds(6));

        Progress progress = metrics.progress().orElseThrow();

        assertThat(progress.trainer()).isEqualTo("trainer-1");
        assertThat(progress.step()).isEqualTo(25);
        assertThat(progress.fraction()).isEqualTo(0.5);
        assertThat(progress.etaSeconds()).isEqualTo(25);
    }

    @Test
    void noReportsNoProgress() {
        metrics.read("trainer-0", "epoch 1", T);

        assertThat(metrics.progress()).isEmpty();
        assertThat(metrics.since(0).progress()).isNull();
    }
}
