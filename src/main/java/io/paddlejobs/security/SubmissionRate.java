package io.paddlejobs.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Submissions per minute, per user: a token bucket that holds a minute's worth and refills evenly,
 * so a burst up to the limit is let through and then one submit per (60 s / limit).
 */
final class SubmissionRate {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final Clock clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    SubmissionRate(Clock clock) {
        this.clock = clock;
    }

    /** Takes one submit from the user's allowance; when there is none left, how long until there is. */
    Optional<Duration> take(String user, int perMinute) {
        if (perMinute <= 0) {
            return Optional.empty();
        }
        Bucket bucket = buckets.computeIfAbsent(user, u -> new Bucket(perMinute, clock.instant()));
        synchronized (bucket) {
            return bucket.take(perMinute, clock.instant());
        }
    }

    /** Gives back what {@link #take} took, for a submit that was refused or created nothing. */
    void giveBack(String user, int perMinute) {
        Bucket bucket = buckets.get(user);
        if (perMinute > 0 && bucket != null) {
            synchronized (bucket) {
                bucket.tokens = Math.min(perMinute, bucket.tokens + 1);
            }
        }
    }

    private static final class Bucket {
        private double tokens;
        private Instant updated;

        Bucket(int capacity, Instant now) {
            this.tokens = capacity;
            this.updated = now;
        }

        Optional<Duration> take(int perMinute, Instant now) {
            double perNano = perMinute / (double) MINUTE.toNanos();
            long elapsed = Math.max(0, Duration.between(updated, now).toNanos());
            tokens = Math.min(perMinute, tokens + elapsed * perNano);
            updated = now;
            if (tokens >= 1) {
                tokens -= 1;
                return Optional.empty();
            }
            return Optional.of(Duration.ofNanos((long) Math.ceil((1 - tokens) / perNano)));
        }
    }
}
