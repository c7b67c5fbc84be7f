package io.paddlejobs.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when told (from any thread): expiries, grace periods and rates without waiting. */
public final class MovableClock extends Clock {

    private final AtomicReference<Instant> now;

    public MovableClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public MovableClock(Instant start) {
        now = new AtomicReference<>(start);
    }

    public void advance(Duration duration) {
        now.updateAndGet(instant -> instant.plus(duration));
    }

    public void set(Instant instant) {
        now.set(instant);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
