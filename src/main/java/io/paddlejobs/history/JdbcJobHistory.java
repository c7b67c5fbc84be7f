package io.paddlejobs.history;

import io.paddlejobs.job.HistoryUnavailableException;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.metrics.MetricsArchive;
import io.paddlejobs.metrics.MetricsSnapshot;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.SharedValues;
import java.time.Clock;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The job history in one SQL database (the embedded H2 file, or PostgreSQL): a row per job with its
 * plan and last status as the API writes them, a row per status transition, a row per replica's kept
 * log, a row with its metrics. Every write commits before it returns; a database that cannot be
 * reached is a {@link HistoryUnavailableException}, a write it refuses Spring's {@code DataAccessException}
 * ({@link StoreCalls}).
 *
 * <p>Nothing of a deleted job is written after its delete. A write made from what the backend held
 * ({@link #record}, {@link #keepLog}, {@link #keepMetrics}) says when that was read, and takes the
 * job's row first: it is dropped when the row is gone (deleted, and the delete holds the row while it
 * removes the rest), when it belongs to a job of the name submitted since, or, for a job the history
 * did not know, when a tombstone says it was deleted. Two writers take the row before any other table,
 * so they never wait on each other in opposite orders.
 */
final class JdbcJobHistory implements JobHistory {

    /** Each table that holds rows of a job, its own row first: a delete holds it while the rest go. */
    static final List<String> TABLES = List.of("job_history", "job_transitions", "job_logs", "job_earlier_logs",
            "job_metrics");

    /** The times epoch nanoseconds hold, in a long. */
    private static final Instant LATEST_NANOS = instant(Long.MAX_VALUE);
    private static final Instant EARLIEST_NANOS = instant(Long.MIN_VALUE);

    private static final int MAX_REASON = 200;
    private static final int MAX_MESSAGE = 4000;

    private final JdbcClient db;
    private final StoreCalls calls;
    private final JsonMapper json;
    private final Clock clock;

    JdbcJobHistory(JdbcClient db, TransactionTemplate transactions, JsonMapper json, Clock clock) {
        this.db = db;
        this.calls = new StoreCalls(transactions);
        this.json = json;
        this.clock = clock;
    }

    Clock clock() {
        return clock;
    }

    @Override
    public void submitted(JobPlan plan) {
        calls.written(() -> {
            forget(db, plan.namespace(), plan.name());
            db.sql("delete from job_tombstones where namespace = ? and name = ?").params(plan.namespace(), plan.name())
                    .update();
            Instant now = clock.instant();
            return db.sql("insert into job_history (namespace, name, created_at, created_ns, submitted_ns, phase,"
                            + " plan_json) values (?, ?, ?, ?, ?, ?, ?)")
                    .params(plan.namespace(), plan.name(), now.toEpochMilli(), nanos(now), nanos(now), "Pending",
                            json.writeValueAsString(plan))
                    .update();
        });
    }

    @Override
    public void record(Job job) {
        record(job, clock.instant());
    }

    /**
     * The job as the backend held it at {@code readAt}.
     *
     * @return whether it was written: not when the job was deleted, or its name submitted again, since
     */
    boolean record(Job job, Instant readAt) {
        JobKey key = job.key();
        JobStatus status = job.status();
        return calls.written(() -> {
            Optional<Long> row = heldRow(key);
            if (row.isPresent() ? row.get() > nanos(readAt) : deleted(key)) {
                return false;
            }
            Optional<Last> last = db.sql("select t.phase, t.reason, t.message, t.seq from job_transitions t"
                            + " where t.namespace = ? and t.name = ? order by t.seq desc fetch first 1 rows only")
                    .params(key.namespace(), key.name())
                    .query((rs, r) -> new Last(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)))
                    .optional();
            String phase = status.phase().name();
            if (row.isPresent()) {
                db.sql("update job_history set phase = ?, finished_at = ?, status_json = ?, plan_json = ?,"
                                + " created_ns = ? where namespace = ? and name = ?")
                        .params(phase, millis(status.finishedAt()), json.writeValueAsString(status),
                                json.writeValueAsString(job.plan()), listedNanos(status), key.namespace(), key.name())
                        .update();
            } else {
                db.sql("insert into job_history (namespace, name, created_at, created_ns, finished_at, phase, plan_json,"
                                + " status_json) values (?, ?, ?, ?, ?, ?, ?, ?)")
                        .params(key.namespace(), key.name(), createdMillis(status), listedNanos(status),
                                millis(status.finishedAt()), phase, json.writeValueAsString(job.plan()),
                                json.writeValueAsString(status))
                        .update();
            }
            String reason = StoreCalls.storable(status.reason(), MAX_REASON);
            String message = StoreCalls.storable(status.message(), MAX_MESSAGE);
            if (last.isEmpty() || !last.get().same(phase, reason, message)) {
                db.sql("insert into job_transitions (namespace, name, seq, at_ms, phase, reason, message)"
                                + " values (?, ?, ?, ?, ?, ?, ?)")
                        .params(key.namespace(), key.name(), last.map(l -> l.seq() + 1).orElse(1), clock.millis(),
                                phase, reason, message)
                        .update();
            }
            return true;
        });
    }

    @Override
    public void keepLog(JobKey key, Role role, int index, String log) {
        keepLog(key, role, index, log, clock.instant());
    }

    /** One replica's log as the backend held it at {@code readAt}; kept only while the job's row is still its. */
    void keepLog(JobKey key, Role role, int index, String log, Instant readAt) {
        String replica = replica(role, index);
        calls.written(() -> {
            if (!stillItsRow(key, readAt)) {
                return false;
            }
            db.sql("delete from job_logs where namespace = ? and name = ? and replica = ?")
                    .params(key.namespace(), key.name(), replica).update();
            return db.sql("insert into job_logs (namespace, name, replica, content) values (?, ?, ?, ?)")
                    .params(key.namespace(), key.name(), replica, StoreCalls.storable(log, Integer.MAX_VALUE))
                    .update() > 0;
        });
    }

    /** One replica's log of an earlier attempt of the job (its end), as the backend held it at {@code readAt}. */
    void keepEarlierLog(JobKey key, Role role, int index, int attempt, String log, Instant readAt) {
        String replica = replica(role, index);
        calls.written(() -> {
            if (!stillItsRow(key, readAt)) {
                return false;
            }
            db.sql("delete from job_earlier_logs where namespace = ? and name = ? and replica = ? and attempt = ?")
                    .params(key.namespace(), key.name(), replica, attempt).update();
            return db.sql("insert into job_earlier_logs (namespace, name, replica, attempt, content) values (?, ?, ?, ?, ?)")
                    .params(key.namespace(), key.name(), replica, attempt, StoreCalls.storable(log, Integer.MAX_VALUE))
                    .update() > 0;
        });
    }

    /** @see MetricsArchive#keepMetrics; {@code readAt}: when the collector had them */
    void keepMetrics(JobKey key, MetricsSnapshot metrics, Instant readAt) {
        calls.written(() -> {
            if (!stillItsRow(key, readAt)) {
                return false;
            }
            db.sql("delete from job_metrics where namespace = ? and name = ?").params(key.namespace(), key.name())
                    .update();
            return db.sql("insert into job_metrics (namespace, name, snapshot_json) values (?, ?, ?)")
                    .params(key.namespace(), key.name(), json.writeValueAsString(metrics)).update() > 0;
        });
    }

    /**
     * Takes the job's row until the transaction ends (a delete waits, or has removed it).
     *
     * @return when a submit wrote it (0 when the recorder added it); empty when there is none
     */
    private Optional<Long> heldRow(JobKey key) {
        return db.sql("select submitted_ns from job_history where namespace = ? and name = ? for update")
                .params(key.namespace(), key.name())
                .query((rs, r) -> rs.getLong(1))
                .optional();
    }

    /** Whether the job has its row, taken, and it was there before {@code readAt} (no later job of the name). */
    private boolean stillItsRow(JobKey key, Instant readAt) {
        return heldRow(key).filter(submitted -> submitted <= nanos(readAt)).isPresent();
    }

    private boolean deleted(JobKey key) {
        return db.sql("select count(*) from job_tombstones where namespace = ? and name = ?")
                .params(key.namespace(), key.name()).query(Integer.class).single() > 0;
    }

    /** @see MetricsArchive#keptMetrics */
    Optional<MetricsSnapshot> keptMetrics(JobKey key) {
        return StoreCalls.read(() -> db.sql("select snapshot_json from job_metrics where namespace = ? and name = ?")
                .params(key.namespace(), key.name())
                .query((rs, row) -> json.readValue(rs.getString(1), MetricsSnapshot.class))
                .optional());
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return StoreCalls.read(() -> db.sql("select plan_json, status_json from job_history where namespace = ? and name = ?"
                        + " and status_json is not null")
                .params(key.namespace(), key.name())
                .query((rs, row) -> archived(rs.getString(1), rs.getString(2), new SharedValues()))
                .optional());
    }

    @Override
    public Batch listed(JobQuery query, Instant below, int count) {
        return StoreCalls.read(() -> {
            StringBuilder where = new StringBuilder(" from job_history where namespace = ? and status_json is not null");
            List<Object> params = new ArrayList<>(List.of(query.namespace()));
            Instant upper = earlier(below, query.createdBefore());
            if (upper != null) {
                // A job with no creation time yet (0) is within any range: it is below every bound.
                where.append(" and created_ns < ?");
                params.add(nanos(upper));
            }
            if (query.createdSince() != null) {
                where.append(" and (created_ns >= ? or created_ns = 0)");
                params.add(nanos(query.createdSince()));
            }
            if (query.phase() != null) {
                where.append(" and phase = ?");
                params.add(query.phase().name());
            }
            params.add(count + 1);
            // By namespace too, as the index is: H2 then reads the index in order and stops at the count,
            // instead of sorting every row below the bound.
            List<Listed> rows = db.sql("select created_ns, name, status_json" + where
                            + " order by namespace, created_ns desc fetch first ? rows only")
                    .params(params).query(this::listedRow).list();
            if (rows.size() <= count) {
                return new Batch(jobs(query.namespace(), rows), null);
            }
            // The batch ends inside the creation time of its last row: leave that time to the next batch,
            // or, when it is the batch's only one, read every job of it now.
            long lastNanos = rows.get(count).createdNanos();
            List<Listed> whole = rows.stream().filter(row -> row.createdNanos() > lastNanos).toList();
            if (!whole.isEmpty()) {
                return new Batch(jobs(query.namespace(), whole), instant(lastNanos + 1));
            }
            List<Listed> sameTime = db.sql("select created_ns, name, status_json from job_history"
                            + " where namespace = ? and status_json is not null and created_ns = ?"
                            + (query.phase() != null ? " and phase = ?" : ""))
                    .params(query.phase() != null
                            ? List.of(query.namespace(), lastNanos, query.phase().name())
                            : List.of(query.namespace(), lastNanos))
                    .query(this::listedRow).list();
            return new Batch(jobs(query.namespace(), sameTime), lastNanos == 0 ? null : instant(lastNanos));
        });
    }

    @Override
    public Optional<String> keptLog(JobKey key, Role role, int index) {
        return StoreCalls.read(() -> db.sql("select content from job_logs where namespace = ? and name = ? and replica = ?")
                .params(key.namespace(), key.name(), replica(role, index))
                .query(String.class)
                .optional());
    }

    @Override
    public Optional<String> keptEarlierLog(JobKey key, Role role, int index, int attempt) {
        return StoreCalls.read(() -> db.sql("select content from job_earlier_logs"
                        + " where namespace = ? and name = ? and replica = ? and attempt = ?")
                .params(key.namespace(), key.name(), replica(role, index), attempt)
                .query(String.class)
                .optional());
    }

    /** Removes everything kept of the job, and leaves a tombstone that keeps a late write of it out. */
    @Override
    public boolean delete(JobKey key) {
        return calls.written(() -> {
            boolean kept = forget(db, key.namespace(), key.name());
            db.sql("delete from job_tombstones where namespace = ? and name = ?").params(key.namespace(), key.name())
                    .update();
            db.sql("insert into job_tombstones (namespace, name, deleted_at) values (?, ?, ?)")
                    .params(key.namespace(), key.name(), clock.millis()).update();
            return kept;
        });
    }

    /** Removes every row of the job, its own first; @return whether it had one in job_history. */
    static boolean forget(JdbcClient db, String namespace, String name) {
        boolean hadRow = false;
        for (String table : TABLES) {
            int removed = db.sql("delete from " + table + " where namespace = ? and name = ?").params(namespace, name)
                    .update();
            hadRow |= table.equals("job_history") && removed > 0;
        }
        return hadRow;
    }

    /** The transitions kept of a job, oldest first. */
    List<Transition> transitions(JobKey key) {
        return StoreCalls.read(() -> db.sql("select at_ms, phase, reason, message from job_transitions"
                        + " where namespace = ? and name = ? order by seq")
                .params(key.namespace(), key.name())
                .query((rs, row) -> new Transition(Instant.ofEpochMilli(rs.getLong(1)), rs.getString(2),
                        rs.getString(3), rs.getString(4)))
                .list());
    }

    /** One change of a job's phase, reason or message, when the service learned of it. */
    record Transition(Instant at, String phase, String reason, String message) {
    }

    private record Last(String phase, String reason, String message, int seq) {
        boolean same(String otherPhase, String otherReason, String otherMessage) {
            return phase.equals(otherPhase) && Objects.equals(reason, otherReason)
                    && Objects.equals(message, otherMessage);
        }
    }

    /**
     * A row of a list, its status not read yet and its plan not even fetched: a batch reads only the rows it
     * returns, and their plans one at a time (the largest plan a tenant may submit is some 3.6 MB of JSON).
     */
    private record Listed(long createdNanos, String name, String status) {
        /** The list's order (ListPosition's): newest first, then by name as Java compares names. */
        static final Comparator<Listed> ORDER = Comparator.comparingLong(Listed::createdNanos).reversed()
                .thenComparing(Listed::name);
    }

    private Listed listedRow(ResultSet rs, int row) throws SQLException {
        return new Listed(rs.getLong(1), rs.getString(2), rs.getString(3));
    }

    /**
     * A batch's jobs in the list's order: SQL orders by time alone (collations order names each their own way).
     * Each plan is fetched and read alone, and held with its replicas' equal values shared, so that a page
     * of the largest jobs asks for a few MB at a time, not every plan's JSON and copies at once.
     */
    private List<Job> jobs(String namespace, List<Listed> rows) {
        SharedValues shared = new SharedValues();
        // A job deleted since its row was listed is left out, as a list read a moment later would.
        return rows.stream().sorted(Listed.ORDER).flatMap(row -> db.sql(
                        "select plan_json from job_history where namespace = ? and name = ?")
                .params(namespace, row.name()).query(String.class).optional().stream()
                .map(plan -> archived(plan, row.status(), shared))).toList();
    }

    private Job archived(String plan, String status, SharedValues shared) {
        return new Job(shared.compact(json.readValue(plan, JobPlan.class)),
                json.readValue(status, JobStatus.class).asArchived());
    }

    private long createdMillis(JobStatus status) {
        return status.createdAt() != null ? status.createdAt().toEpochMilli() : clock.millis();
    }

    /** Where the job sorts in the list: its creation time, or 0 (the oldest) while it has none, as ListPosition has it. */
    private static long listedNanos(JobStatus status) {
        return status.createdAt() == null ? 0 : nanos(status.createdAt());
    }

    /** Epoch nanoseconds; a bound of a list beyond what they hold (after 2262, before 1677) is held at their end. */
    private static long nanos(Instant at) {
        if (at.isAfter(LATEST_NANOS)) {
            return Long.MAX_VALUE;
        }
        if (at.isBefore(EARLIEST_NANOS)) {
            return Long.MIN_VALUE;
        }
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    private static Instant earlier(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }

    private static Long millis(Instant at) {
        return at == null ? null : at.toEpochMilli();
    }

    private static String replica(Role role, int index) {
        return role.name().toLowerCase(Locale.ROOT) + "-" + index;
    }
}
