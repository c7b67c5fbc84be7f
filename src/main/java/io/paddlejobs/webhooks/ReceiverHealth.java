package io.paddlejobs.webhooks;

import io.paddlejobs.planning.RestartBackoff;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A circuit breaker per receiver (scheme, host and port): after {@link #FAILURES_BEFORE_REST} attempts
 * in a row that got no 2xx, a receiver rests, and nothing is sent to it until the rest is over, when one
 * attempt tries it again; each failure after that doubles the rest ({@code retry-backoff} doubling to
 * {@code max-retry-backoff}). A 2xx ends it. So a receiver that hangs or refuses costs a sender a few
 * attempts, not one per pending delivery, however many a tenant made for it. Only the webhooks thread
 * uses it; it starts afresh with the service.
 */
final class ReceiverHealth {

    /** Failures in a row a receiver is allowed before it rests: one bad answer is no pattern. */
    static final int FAILURES_BEFORE_REST = 3;

    private final RestartBackoff backoff;
    private final Map<String, Failing> failing = new HashMap<>();

    private record Failing(int inARow, Instant restsUntil) {
    }

    ReceiverHealth(RestartBackoff backoff) {
        this.backoff = backoff;
    }

    /** Whether the receiver may be sent to now. */
    boolean ready(String receiver, Instant now) {
        Failing state = failing.get(receiver);
        return state == null || state.restsUntil() == null || !now.isBefore(state.restsUntil());
    }

    /** An attempt to the receiver ended at {@code at}: answered with a 2xx, or not. */
    void attempted(String receiver, boolean delivered, Instant at) {
        if (delivered) {
            failing.remove(receiver);
            return;
        }
        int inARow = failing.containsKey(receiver) ? failing.get(receiver).inARow() + 1 : 1;
        Instant restsUntil = inARow < FAILURES_BEFORE_REST ? null
                : at.plus(backoff.before(inARow - FAILURES_BEFORE_REST + 1));
        failing.put(receiver, new Failing(inARow, restsUntil));
    }

    /** Whether the receiver's last attempt got no 2xx (it may be resting too). */
    boolean failing(String receiver) {
        return failing.containsKey(receiver);
    }
}
