package io.paddlejobs.webhooks;

import io.paddlejobs.planning.RestartBackoff;
import java.time.Duration;
import java.time.Instant;

/**
 * When a failed delivery is tried again: after a wait that doubles with each failed attempt up to a
 * longest one (the same doubling as restarts, {@link RestartBackoff}), until {@code giveUpAfter} has
 * passed since the event; then never.
 */
record Retries(RestartBackoff backoff, Duration giveUpAfter) {

    /** @return the next attempt after {@code delivery}'s attempt at {@code at} failed; {@code null}: give up */
    Instant next(Delivery delivery, Instant at) {
        Instant next = at.plus(backoff.before(delivery.attempts().size() + 1));
        return next.isAfter(delivery.createdAt().plus(giveUpAfter)) ? null : next;
    }

    /** Whether {@code give-up-after} has passed since the delivery's event: it is not tried again. */
    boolean expired(Delivery delivery, Instant now) {
        return now.isAfter(delivery.createdAt().plus(giveUpAfter));
    }
}
