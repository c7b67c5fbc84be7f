package io.paddlejobs.backend.kubernetes.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.testing.MovableClock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CheckedClaimsTest {

    private final MovableClock now = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final AtomicInteger lookups = new AtomicInteger();
    private final AtomicReference<DataClaim> found = new AtomicReference<>(new DataClaim("paddle-data", false));

    private final CheckedClaims claims = new CheckedClaims(namespace -> {
        lookups.incrementAndGet();
        DataClaim claim = found.get();
        if (claim == null) {
            throw DataClaimUnusableException.missing(namespace, "paddle-data");
        }
        return claim;
    }, now);

    @Test
    void aUsableClaimIsLookedUpOncePerNamespaceForAWhile() {
        claims.check("a");
        claims.check("a");
        claims.check("b");

        assertThat(lookups).hasValue(2);
    }

    @Test
    void aClaimIsLookedUpAgainOnceTheWhileHasPassed() {
        claims.check("a");
        found.set(new DataClaim("paddle-data", true));
        now.advance(CheckedClaims.FOR);

        assertThat(claims.check("a").readOnly()).isTrue();
        assertThat(lookups).hasValue(2);
    }

    @Test
    void aRefusalIsNotKeptSoThatAFixedClaimIsSeenAtOnce() {
        found.set(null);
        assertThatThrownBy(() -> claims.check("a")).isInstanceOf(DataClaimUnusableException.class);
        found.set(new DataClaim("paddle-data", false));

        assertThat(claims.check("a").name()).isEqualTo("paddle-data");
        assertThat(lookups).hasValue(2);
    }
}
