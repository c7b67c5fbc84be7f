package io.paddlejobs.sweeps;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.history.HistoryStores;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.Tenant;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The claim on a sweep, on the service's own migrated database: two replicas ({@code a}, {@code b}) and
 * times the test gives, so that a lease lapses when the test says.
 */
class SweepStoreTest {

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final SweepKey KEY = new SweepKey("default", "grid");

    @TempDir
    Path dir;
    private HikariDataSource database;
    private SweepStore store;

    @BeforeEach
    void openTheStore() {
        database = HistoryStores.embedded(dir);
        store = new SweepStore(JdbcClient.create(database),
                JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build());
        assertThat(store.insert(sweep())).isTrue();
    }

    @AfterEach
    void closeIt() {
        database.close();
    }

    @Test
    void oneReplicaAtATimeHoldsASweepAndAnotherTakesItOnlyOnceTheLeaseLapsed() {
        assertThat(store.claim(KEY, "a", T0, T0.plus(LEASE))).isTrue();

        assertThat(store.claimable("b", T0.plusSeconds(10))).isEmpty();
        assertThat(store.claim(KEY, "b", T0.plusSeconds(10), T0.plusSeconds(10).plus(LEASE))).isFalse();
        assertThat(store.save(KEY, "b", JobPhase.RUNNING, sweep().state(), null, T0.plus(LEASE))).as("b holds no claim").isFalse();
        assertThat(store.save(KEY, "a", JobPhase.RUNNING, sweep().state(), null, T0.plusSeconds(20).plus(LEASE)))
                .as("a renews its claim as it writes").isTrue();
        assertThat(store.claim(KEY, "b", T0.plus(LEASE).plusSeconds(1), T0.plus(LEASE.multipliedBy(2))))
                .as("a's renewed lease still holds").isFalse();

        Instant lapsed = T0.plusSeconds(20).plus(LEASE).plusMillis(1);
        assertThat(store.claimable("b", lapsed)).containsExactly(KEY);
        assertThat(store.claim(KEY, "b", lapsed, lapsed.plus(LEASE))).isTrue();
        assertThat(store.save(KEY, "a", JobPhase.RUNNING, sweep().state(), null, lapsed.plus(LEASE)))
                .as("a lost the claim: what it decided is not written").isFalse();
        assertThat(store.find(KEY).orElseThrow().driver()).isEqualTo("b");
    }

    @Test
    void aReplicaThatStopsGivesItsClaimsUpAtOnce() {
        assertThat(store.claim(KEY, "a", T0, T0.plus(LEASE))).isTrue();

        store.release("a");

        assertThat(store.claim(KEY, "b", T0.plusSeconds(1), T0.plusSeconds(1).plus(LEASE))).isTrue();
    }

    @Test
    void aCancelledOrFinishedSweepIsNoLongerWrittenByItsDriverNorClaimed() {
        assertThat(store.claim(KEY, "a", T0, T0.plus(LEASE))).isTrue();

        assertThat(store.cancel(KEY, T0.plusSeconds(1))).isTrue();

        assertThat(store.save(KEY, "a", JobPhase.RUNNING, sweep().state(), null, T0.plus(LEASE))).isFalse();
        SweepRecord cancelled = store.find(KEY).orElseThrow();
        assertThat(cancelled.phase()).isEqualTo(JobPhase.CANCELLED);
        assertThat(cancelled.cancelledAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(store.claimable("b", T0.plus(LEASE.multipliedBy(2)))).isEmpty();
        assertThat(store.cancel(KEY, T0.plusSeconds(2))).as("cancelled once").isFalse();
    }

    @Test
    void aSweepIsReadBackAsItWasWritten() {
        SweepRecord read = store.find(KEY).orElseThrow();

        assertThat(read.request()).isEqualTo(sweep().request());
        assertThat(read.state()).isEqualTo(sweep().state());
        assertThat(read.owner()).isEqualTo(sweep().owner());
        assertThat(store.insert(sweep())).as("the name is taken").isFalse();
    }

    private static SweepRecord sweep() {
        SweepRequest request = new SweepRequest("grid", Map.of("entry_point", "true"),
                List.of(new SweepRequest.Parameter("lr", "LR", null, null, List.of(0.1, 0.01), null, null, null, null, null)),
                null, null, null, 2, null, null);
        List<TrialState> trials = List.of(TrialState.planned(1, "grid-t1", Map.of("lr", 0.1)),
                TrialState.planned(2, "grid-t2", Map.of("lr", 0.01)));
        return new SweepRecord("default", "grid", T0, null, null, JobPhase.PENDING, request,
                new Tenant("alice", List.of("default"), SecurityProperties.Limits.NONE), "http://127.0.0.1:8080",
                SweepState.planned(trials, List.of()), null, Instant.EPOCH);
    }
}
