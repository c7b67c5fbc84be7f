package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SubmissionRateTest {

    final MutableClock clock = new MutableClock();
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

    static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
