package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The waits before restarts, and when they take enough of a {@code max_run_time} counted across them to say so. */
class RestartBackoffTest {

    private static final RestartBackoff SHIPPED = new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    @Test
    void theWaitsDoubleUpToTheirCeilingAndAddUp() {
        assertThat(SHIPPED.before(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(SHIPPED.before(6)).isEqualTo(Duration.ofMinutes(5));
        // 10 + 20 + 40 + 80 + 160 s, then 5 min five times
        assertThat(SHIPPED.totalBefore(10)).isEqualTo(Duration.ofSeconds(310 + 1500));
        assertThat(SHIPPED.totalBefore(0)).isZero();
    }

    @Test
    void restartsThatMayWaitATenthOfTheRunTimeOrMoreAreSaidWithTheirFigures() {
        assertThat(SHIPPED.eatsIntoMaxRunTime(Duration.ofHours(2), 10)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("max_run_time (2h) counts from the job's first start", "its 10 restarts may wait up to 30m10s",
                        "paddlejobs.restarts.backoff", "at least a minute"));
    }

    @Test
    void waitsBelowATenthOfTheRunTimeOrAJobWithoutEitherSayNothing() {
        assertThat(SHIPPED.eatsIntoMaxRunTime(Duration.ofHours(2), 3)).as("70 s of 2 h").isEmpty();
        assertThat(SHIPPED.eatsIntoMaxRunTime(null, 10)).isEmpty();
        assertThat(SHIPPED.eatsIntoMaxRunTime(Duration.ofMinutes(5), 0)).isEmpty();
    }
}
