package io.paddlejobs.security.kubernetes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The cluster's answers, allow and deny alike, kept for a short time so that a caller polling a
 * status URL does not cost the API server two reviews per poll. A review that fails (throws) is
 * not kept: the next request asks again, so a caller is back as soon as the API server is.
 */
final class ReviewCache<K, V> {

    /** Beyond this many answers, expired ones are dropped, and if none had expired, all: memory stays bounded. */
    static final int MAX_ENTRIES = 10_000;

    private record Answer<V>(V value, Instant expires) {
    }

    private final Clock clock;
    private final Duration ttl;
    private final Map<K, Answer<V>> answers = new ConcurrentHashMap<>();

    ReviewCache(Clock clock, Duration ttl) {
        this.clock = clock;
        this.ttl = ttl;
    }

    /** The kept answer for {@code key}, else {@code review}'s, kept for the TTL; {@code review}'s exceptions pass through. */
    V get(K key, Supplier<V> review) {
        Instant now = clock.instant();
        Answer<V> kept = answers.get(key);
        if (kept != null && now.isBefore(kept.expires())) {
            return kept.value();
        }
        V value = review.get();
        if (answers.size() >= MAX_ENTRIES) {
            answers.values().removeIf(answer -> !now.isBefore(answer.expires()));
            if (answers.size() >= MAX_ENTRIES) {
                answers.clear();
            }
        }
        answers.put(key, new Answer<>(value, now.plus(ttl)));
        return value;
    }
}
