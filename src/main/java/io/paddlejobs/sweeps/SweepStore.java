package io.paddlejobs.sweeps;

import io.paddlejobs.job.HistoryUnavailableException;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.security.Tenant;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sweeps in the history's database (table {@code sweeps}), shared by every replica of the service. A
 * driver's writes hold only while it holds the sweep's claim ({@code driver}, {@code lease_until}): each
 * is one conditional update, so a replica that lost the claim changes nothing, and two never both act.
 * A store that cannot be reached is a {@link HistoryUnavailableException} (503), as for jobs.
 */
final class SweepStore {

    private record Owner(Tenant tenant, String baseUrl) {
    }

    private final JdbcClient db;
    private final JsonMapper json;

    SweepStore(JdbcClient db, JsonMapper json) {
        this.db = db;
        // What a later version writes, an earlier one still reads (a rolling upgrade has both).
        this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    }

    /** Inserts a new sweep; false when its name is taken (the caller reads what has it). */
    boolean insert(SweepRecord sweep) {
        try {
            return call(() -> db.sql("""
                    insert into sweeps (namespace, name, created_at, phase, request_json, owner_json, state_json, lease_until)
                    values (:namespace, :name, :created, :phase, :request, :owner, :state, 0)""")
                    .param("namespace", sweep.namespace()).param("name", sweep.name())
                    .param("created", sweep.createdAt().toEpochMilli()).param("phase", sweep.phase().name())
                    .param("request", json.writeValueAsString(sweep.request()))
                    .param("owner", json.writeValueAsString(new Owner(sweep.owner(), sweep.baseUrl())))
                    .param("state", json.writeValueAsString(sweep.state())).update() == 1);
        } catch (DuplicateKeyException taken) {
            return false;
        }
    }

    Optional<SweepRecord> find(SweepKey key) {
        return call(() -> db.sql("select * from sweeps where namespace = :namespace and name = :name")
                .param("namespace", key.namespace()).param("name", key.name()).query(this::read).optional());
    }

    /** The namespace's sweeps, newest first, at most {@code limit}. */
    List<SweepRecord> list(String namespace, int limit) {
        return call(() -> db.sql("select * from sweeps where namespace = :namespace order by created_at desc, name limit :limit")
                .param("namespace", namespace).param("limit", limit).query(this::read).list());
    }

    /** Unfinished sweeps that nobody drives, or whose driver let its lease lapse, or that {@code me} drives. */
    List<SweepKey> claimable(String me, Instant now) {
        return call(() -> db.sql("""
                select namespace, name from sweeps where finished_at is null
                and (driver is null or driver = :me or lease_until < :now) order by created_at""")
                .param("me", me).param("now", now.toEpochMilli())
                .query((row, i) -> new SweepKey(row.getString(1), row.getString(2))).list());
    }

    /** Takes the sweep for {@code me} until {@code until}, when it is free or its driver's lease lapsed. */
    boolean claim(SweepKey key, String me, Instant now, Instant until) {
        return call(() -> db.sql("""
                update sweeps set driver = :me, lease_until = :until
                where namespace = :namespace and name = :name and finished_at is null
                and (driver is null or driver = :me or lease_until < :now)""")
                .param("me", me).param("until", until.toEpochMilli()).param("now", now.toEpochMilli())
                .param("namespace", key.namespace()).param("name", key.name()).update() == 1);
    }

    /**
     * Writes what the driver decided, and renews its claim: only while {@code me} holds it, the sweep is
     * unfinished and not cancelled. False when it did not hold (another drives it, it was cancelled or deleted).
     */
    boolean save(SweepKey key, String me, JobPhase phase, SweepState state, Instant finishedAt, Instant until) {
        return call(() -> db.sql("""
                update sweeps set phase = :phase, state_json = :state, finished_at = :finished, lease_until = :until,
                driver = case when :finished is null then driver end
                where namespace = :namespace and name = :name and driver = :me
                and finished_at is null and cancelled_at is null""")
                .param("phase", phase.name()).param("state", json.writeValueAsString(state))
                .param("finished", finishedAt == null ? null : finishedAt.toEpochMilli(), java.sql.Types.BIGINT)
                .param("until", until.toEpochMilli()).param("namespace", key.namespace()).param("name", key.name())
                .param("me", me).update() == 1);
    }

    /** Marks an unfinished sweep cancelled and finished; false when it had finished already (or is not there). */
    boolean cancel(SweepKey key, Instant now) {
        return call(() -> db.sql("""
                update sweeps set cancelled_at = :now, finished_at = :now, phase = :phase
                where namespace = :namespace and name = :name and finished_at is null""")
                .param("now", now.toEpochMilli()).param("phase", JobPhase.CANCELLED.name())
                .param("namespace", key.namespace()).param("name", key.name()).update() == 1);
    }

    boolean delete(SweepKey key) {
        return call(() -> db.sql("delete from sweeps where namespace = :namespace and name = :name")
                .param("namespace", key.namespace()).param("name", key.name()).update() == 1);
    }

    /** Gives up every claim of {@code me} (a replica stopping): another replica takes them at once. */
    void release(String me) {
        call(() -> db.sql("update sweeps set driver = null, lease_until = 0 where driver = :me")
                .param("me", me).update());
    }

    private SweepRecord read(ResultSet row, int index) throws SQLException {
        Owner owner = json.readValue(row.getString("owner_json"), Owner.class);
        return new SweepRecord(row.getString("namespace"), row.getString("name"), instant(row, "created_at"),
                instant(row, "finished_at"), instant(row, "cancelled_at"), JobPhase.valueOf(row.getString("phase")),
                json.readValue(row.getString("request_json"), SweepRequest.class), owner.tenant(), owner.baseUrl(),
                json.readValue(row.getString("state_json"), SweepState.class), row.getString("driver"),
                instant(row, "lease_until"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        long millis = row.getLong(column);
        return row.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    /** A store that cannot be reached is a 503 worth trying again; anything else it refuses is a bug to report. */
    private static <T> T call(Supplier<T> statement) {
        try {
            return statement.get();
        } catch (TransientDataAccessException | RecoverableDataAccessException | DataAccessResourceFailureException e) {
            throw new HistoryUnavailableException(e);
        }
    }
}
