package io.paddlejobs.webhooks;

import io.paddlejobs.planning.JobEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One event for one webhook: the body is fixed when the event happens, so every attempt sends the
 * same bytes under the same {@code webhook-id} (the receiver's key to drop a repeat); only
 * {@code webhook-timestamp} and the signature are made anew for each attempt.
 *
 * @param signedWith    whose secret signs it
 * @param nextAttemptAt when it is tried next; {@code null} once delivered or given up
 */
record Delivery(String id, JobEvent event, String url, SecretOf signedWith, String body, Instant createdAt,
                State state, Instant nextAttemptAt, List<Try> attempts) {

    /** The secret of the job ({@code notify}, unless its namespace has one) or of its namespace. */
    enum SecretOf { JOB, NAMESPACE }

    enum State {
        /** Not yet answered with a 2xx; tried again at {@code nextAttemptAt}. */
        PENDING,
        /** A 2xx came back. */
        DELIVERED,
        /** Every attempt of {@code paddlejobs.webhooks.give-up-after} failed; no more are made. */
        GAVE_UP
    }

    /**
     * One attempt.
     *
     * @param status the answer's status code; {@code null} when none came (refused, timed out)
     * @param answer the answer's first bytes, as text; or why none came
     */
    record Try(Instant at, Integer status, String answer, long millis) {

        boolean delivered() {
            return status != null && status >= 200 && status < 300;
        }
    }

    Delivery {
        attempts = List.copyOf(attempts);
    }

    /** This delivery given up at {@code at} without another attempt, saying why. */
    Delivery gaveUp(Instant at, String why) {
        List<Try> all = new ArrayList<>(attempts);
        all.add(new Try(at, null, why, 0));
        return new Delivery(id, event, url, signedWith, body, createdAt, State.GAVE_UP, null, all);
    }

    /** This delivery after {@code attempt}: delivered, tried again at {@code next}, or given up when that is {@code null}. */
    Delivery after(Try attempt, Instant next) {
        List<Try> all = new ArrayList<>(attempts);
        all.add(attempt);
        State now = attempt.delivered() ? State.DELIVERED : next == null ? State.GAVE_UP : State.PENDING;
        return new Delivery(id, event, url, signedWith, body, createdAt, now, now == State.PENDING ? next : null, all);
    }
}
