package io.paddlejobs.web;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many request bodies each caller, and all callers together, are sending at once, each counted from the
 * request's start until its body has arrived (or the request ended without it). On a JDK without virtual threads
 * each holds one of Tomcat's fixed pool of threads while its bytes trickle in, so one caller may hold at most
 * {@code perCaller} and all of them together at most {@code total}: callers each within their share cannot add up
 * to the whole pool.
 */
final class BodiesInProgress {

    private final int perCaller;
    private final int total;
    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
    private final AtomicInteger all = new AtomicInteger();

    BodiesInProgress(int perCaller, int total) {
        this.perCaller = perCaller;
        this.total = total;
    }

    int perCaller() {
        return perCaller;
    }

    int total() {
        return total;
    }

    /** A place for one more body of {@code caller}'s, if it and all callers are under their limits; else empty. */
    Optional<Place> enter(String caller) {
        if (all.getAndUpdate(now -> now < total ? now + 1 : now) >= total) {
            return Optional.empty();
        }
        boolean[] entered = {false};
        counts.compute(caller, (key, count) -> {
            int now = count == null ? 0 : count;
            if (now >= perCaller) {
                return count;
            }
            entered[0] = true;
            return now + 1;
        });
        if (!entered[0]) {
            all.decrementAndGet();
            return Optional.empty();
        }
        return Optional.of(new Place(caller));
    }

    /** Whether {@code caller} has its own limit's worth in progress (else a refusal was for all callers' total). */
    boolean atCallerLimit(String caller) {
        return counts.getOrDefault(caller, 0) >= perCaller;
    }

    /** Callers with a body in progress: a caller is forgotten with its last one. */
    int callers() {
        return counts.size();
    }

    /** Bodies in progress, of all callers. */
    int inProgress() {
        return all.get();
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
                all.decrementAndGet();
            }
        }
    }
}
