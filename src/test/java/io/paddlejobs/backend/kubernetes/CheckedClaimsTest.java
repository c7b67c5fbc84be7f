package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CheckedClaimsTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));
    private final AtomicInteger lookups = new AtomicInteger();
    private final AtomicReference<DataClaim> found = new AtomicReference<>(new DataClaim("paddle-data", false));

    private final CheckedClaims claims = new CheckedClaims(namespace -> {
        lookups.incrementAndGet();
        DataClaim claim = found.get();
        if (claim == null) {
            throw DataClaimUnusableException.missing(namespace, "paddle-data");
        }
        return claim;
    }, new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    });

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
        now.set(now.get().plus(CheckedClaims.FOR));

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
