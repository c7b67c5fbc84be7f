package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.MovableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SubmissionRateTest {

    final MovableClock clock = new MovableClock();
    final SubmissionRate rate = new SubmissionRate(clock);

    @Test
    void aBurstUpToTheLimitPassesThenTheNextWaitsForItsShareOfTheMinute() {
        for (int i = 0; i < 6; i++) {
            assertThat(rate.take("alice", 6)).as("submit %d", i).isEmpty();
        }

        assertThat(rate.take("alice", 6)).hasValue(Duration.ofSeconds(10));
        clock.advance(Duration.ofSeconds(4));
        assertThat(rate.take("alice", 6)).hasValue(Duration.ofSeconds(6));
        clock.advance(Duration.ofSeconds(6));
        assertThat(rate.take("alice", 6)).isEmpty();
    }

    @Test
    void eachUserHasTheirOwnAllowance() {
        assertThat(rate.take("alice", 1)).isEmpty();
        assertThat(rate.take("alice", 1)).isPresent();

        assertThat(rate.take("bob", 1)).isEmpty();
    }

    @Test
    void zeroMeansNoLimit() {
        for (int i = 0; i < 1000; i++) {
            assertThat(rate.take("alice", 0)).isEmpty();
        }
    }

    @Test
    void aLongPauseRefillsNoMoreThanAMinutesWorth() {
        rate.take("alice", 2);
        clock.advance(Duration.ofHours(1));

        assertThat(rate.take("alice", 2)).isEmpty();
        assertThat(rate.take("alice", 2)).isEmpty();
        assertThat(rate.take("alice", 2)).isPresent();
    }
}
