package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.security.Tenant;
import java.time.Instant;

/**
 * A sweep as the store keeps it.
 *
 * @param owner       who submitted it: its trials are submitted as them, against their limits
 * @param baseUrl     where its creating request reached the service: its trials' status URLs point there
 * @param cancelledAt when it was cancelled ({@code null}: it was not); written by a cancel, never by a driver
 * @param driver      the service replica that drives it now, {@code null} when none does
 * @param leaseUntil  until when {@code driver} holds it, unless it renews its claim
 */
record SweepRecord(String namespace, String name, Instant createdAt, Instant finishedAt, Instant cancelledAt,
                   JobPhase phase, SweepRequest request, Tenant owner, String baseUrl, SweepState state,
                   String driver, Instant leaseUntil) {

    SweepKey key() {
        return new SweepKey(namespace, name);
    }

    boolean finished() {
        return finishedAt != null;
    }
}
