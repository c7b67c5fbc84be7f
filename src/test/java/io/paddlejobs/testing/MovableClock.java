package io.paddlejobs.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that moves only when told (from any thread): expiries, grace periods and rates without waiting.
 * {@link #runningFromNow()} is the system's clock instead, moved ahead when told: for code whose clock
 * must also run on its own (times it compares with files' modification times, creation times in order).
 */
public final class MovableClock extends Clock {

    private final Clock underlying;
    private final AtomicReference<Duration> moved = new AtomicReference<>(Duration.ZERO);

    public MovableClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public MovableClock(Instant start) {
        this(Clock.fixed(start, ZoneOffset.UTC));
    }

    private MovableClock(Clock underlying) {
        this.underlying = underlying;
    }

    /** The system's clock, moved ahead by what {@link #advance} adds. */
    public static MovableClock runningFromNow() {
        return new MovableClock(Clock.systemUTC());
    }

    public void advance(Duration duration) {
        moved.updateAndGet(sum -> sum.plus(duration));
    }

    /** Reads {@code instant} now (a stopped clock stays there). */
    public void set(Instant instant) {
        moved.set(Duration.between(underlying.instant(), instant));
    }

    @Override
    public Instant instant() {
        return underlying.instant().plus(moved.get());
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
