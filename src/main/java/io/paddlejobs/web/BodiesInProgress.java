package io.paddlejobs.web;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How many request bodies each caller is sending at once, each counted from the request's start until its
 * body has arrived (or the request ended without it). On a JDK without virtual threads each holds one of
 * Tomcat's fixed pool of threads while its bytes trickle in, so one caller may hold at most {@code limit}.
 */
final class BodiesInProgress {

    private final int limit;
    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();

    BodiesInProgress(int limit) {
        this.limit = limit;
    }

    int limit() {
        return limit;
    }

    /** A place for one more body of {@code caller}'s, if it has fewer than the limit in progress; else empty. */
    Optional<Place> enter(String caller) {
        boolean[] entered = {false};
        counts.compute(caller, (key, count) -> {
            int now = count == null ? 0 : count;
            if (now >= limit) {
                return count;
            }
            entered[0] = true;
            return now + 1;
        });
        return entered[0] ? Optional.of(new Place(caller)) : Optional.empty();
    }

    /** Callers with a body in progress: a caller is forgotten with its last one. */
    int callers() {
        return counts.size();
    }

    /** One body's place; leaving twice (its body arrived, then its request ended) counts once. */
    final class Place {
        private final String caller;
        private final AtomicBoolean left = new AtomicBoolean();

        private Place(String caller) {
            this.caller = caller;
        }

        void leave() {
            if (left.compareAndSet(false, true)) {
                counts.computeIfPresent(caller, (key, count) -> count <= 1 ? null : count - 1);
            }
        }
    }
}
