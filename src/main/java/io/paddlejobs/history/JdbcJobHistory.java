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
import java.util.function.Supplier;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The job history in one SQL database (the embedded H2 file, or PostgreSQL): a row per job with its
 * plan and last status as the API writes them, a row per status transition, a row per replica's kept
 * log, a row with its metrics. Every write commits before it returns; a database that cannot be
 * reached is a {@link HistoryUnavailableException}.
 */
final class JdbcJobHistory implements JobHistory {

    /** Each table that holds rows of a job, its own row last (removed in this order). */
    private static final List<String> TABLES = List.of("job_transitions", "job_logs", "job_metrics", "job_history");

    /** The times epoch nanoseconds hold, in a long. */
    private static final Instant LATEST_NANOS = instant(Long.MAX_VALUE);
    private static final Instant EARLIEST_NANOS = instant(Long.MIN_VALUE);

    /** How often a write is tried when concurrent writers of its rows keep getting there first. */
    private static final int WRITE_TRIES = 5;

    private final JdbcClient db;
    private final TransactionTemplate transactions;
    private final JsonMapper json;
    private final Clock clock;

    JdbcJobHistory(JdbcClient db, TransactionTemplate transactions, JsonMapper json, Clock clock) {
        this.db = db;
        this.transactions = transactions;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public void submitted(JobPlan plan) {
        written(() -> {
            forget(db, plan.namespace(), plan.name());
            Instant now = clock.instant();
            db.sql("insert into job_history (namespace, name, created_at, created_ns, phase, plan_json)"
                            + " values (?, ?, ?, ?, ?, ?)")
                    .params(plan.namespace(), plan.name(), now.toEpochMilli(), nanos(now), "Pending",
                            json.writeValueAsString(plan))
                    .update();
        });
    }

    @Override
    public void record(Job job) {
        JobKey key = job.key();
        JobStatus status = job.status();
        written(() -> {
            Optional<Last> last = db.sql("select t.phase, t.reason, t.message, t.seq from job_transitions t"
                            + " where t.namespace = ? and t.name = ? order by t.seq desc fetch first 1 rows only")
                    .params(key.namespace(), key.name())
                    .query((rs, row) -> new Last(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)))
                    .optional();
            String phase = status.phase().name();
            int updated = db.sql("update job_history set phase = ?, finished_at = ?, status_json = ?, plan_json = ?,"
                            + " created_ns = ? where namespace = ? and name = ?")
                    .params(phase, millis(status.finishedAt()), json.writeValueAsString(status),
                            json.writeValueAsString(job.plan()), listedNanos(status), key.namespace(), key.name())
                    .update();
            if (updated == 0) {
                db.sql("insert into job_history (namespace, name, created_at, created_ns, finished_at, phase, plan_json,"
                                + " status_json) values (?, ?, ?, ?, ?, ?, ?, ?)")
                        .params(key.namespace(), key.name(), createdMillis(status), listedNanos(status),
                                millis(status.finishedAt()), phase, json.writeValueAsString(job.plan()),
                                json.writeValueAsString(status))
                        .update();
            }
            if (last.isEmpty() || !last.get().same(phase, status.reason(), status.message())) {
                db.sql("insert into job_transitions (namespace, name, seq, at_ms, phase, reason, message)"
                                + " values (?, ?, ?, ?, ?, ?, ?)")
                        .params(key.namespace(), key.name(), last.map(l -> l.seq() + 1).orElse(1), clock.millis(),
                                phase, clip(status.reason(), 200), clip(status.message(), 4000))
                        .update();
            }
        });
    }

    @Override
    public void keepLog(JobKey key, Role role, int index, String log) {
        String replica = replica(role, index);
        written(() -> {
            db.sql("delete from job_logs where namespace = ? and name = ? and replica = ?")
                    .params(key.namespace(), key.name(), replica).update();
            db.sql("insert into job_logs (namespace, name, replica, content) values (?, ?, ?, ?)")
                    .params(key.namespace(), key.name(), replica, log).update();
        });
    }

    /** @see MetricsArchive#keepMetrics */
    void keepMetrics(JobKey key, MetricsSnapshot metrics) {
        written(() -> {
            db.sql("delete from job_metrics where namespace = ? and name = ?").params(key.namespace(), key.name())
                    .update();
            db.sql("insert into job_metrics (namespace, name, snapshot_json) values (?, ?, ?)")
                    .params(key.namespace(), key.name(), json.writeValueAsString(metrics)).update();
        });
    }

    /** @see MetricsArchive#keptMetrics */
    Optional<MetricsSnapshot> keptMetrics(JobKey key) {
        return guarded(() -> db.sql("select snapshot_json from job_metrics where namespace = ? and name = ?")
                .params(key.namespace(), key.name())
                .query((rs, row) -> json.readValue(rs.getString(1), MetricsSnapshot.class))
                .optional());
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return guarded(() -> db.sql("select plan_json, status_json from job_history where namespace = ? and name = ?"
                        + " and status_json is not null")
                .params(key.namespace(), key.name())
                .query((rs, row) -> archived(rs.getString(1), rs.getString(2)))
                .optional());
    }

    @Override
    public Batch listed(JobQuery query, Instant below, int count) {
        return guarded(() -> {
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
            List<Listed> rows = db.sql("select created_ns, name, plan_json, status_json" + where
                            + " order by namespace, created_ns desc fetch first ? rows only")
                    .params(params).query(this::listedRow).list();
            if (rows.size() <= count) {
                return new Batch(jobs(rows), null);
            }
            // The batch ends inside the creation time of its last row: leave that time to the next batch,
            // or, when it is the batch's only one, read every job of it now.
            long lastNanos = rows.get(count).createdNanos();
            List<Listed> whole = rows.stream().filter(row -> row.createdNanos() > lastNanos).toList();
            if (!whole.isEmpty()) {
                return new Batch(jobs(whole), instant(lastNanos + 1));
            }
            List<Listed> sameTime = db.sql("select created_ns, name, plan_json, status_json from job_history"
                            + " where namespace = ? and status_json is not null and created_ns = ?"
                            + (query.phase() != null ? " and phase = ?" : ""))
                    .params(query.phase() != null
                            ? List.of(query.namespace(), lastNanos, query.phase().name())
                            : List.of(query.namespace(), lastNanos))
                    .query(this::listedRow).list();
            return new Batch(jobs(sameTime), lastNanos == 0 ? null : instant(lastNanos));
        });
    }

    @Override
    public Optional<String> keptLog(JobKey key, Role role, int index) {
        return guarded(() -> db.sql("select content from job_logs where namespace = ? and name = ? and replica = ?")
                .params(key.namespace(), key.name(), replica(role, index))
                .query(String.class)
                .optional());
    }

    @Override
    public boolean delete(JobKey key) {
        return Boolean.TRUE.equals(guarded(() -> transactions.execute(tx -> forget(db, key.namespace(), key.name()))));
    }

    /** Removes every row of the job; @return whether it had any in job_history. */
    static boolean forget(JdbcClient db, String namespace, String name) {
        int jobRows = 0;
        for (String table : TABLES) {
            jobRows = db.sql("delete from " + table + " where namespace = ? and name = ?").params(namespace, name).update();
        }
        return jobRows > 0; // job_history's, the last table
    }

    /** The transitions kept of a job, oldest first. */
    List<Transition> transitions(JobKey key) {
        return guarded(() -> db.sql("select at_ms, phase, reason, message from job_transitions"
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
            return phase.equals(otherPhase) && Objects.equals(reason, clip(otherReason, 200))
                    && Objects.equals(message, clip(otherMessage, 4000));
        }
    }

    /** A row of a list, its JSON not read yet: a batch reads only the rows it returns. */
    private record Listed(long createdNanos, String name, String plan, String status) {
        /** The list's order (ListPosition's): newest first, then by name as Java compares names. */
        static final Comparator<Listed> ORDER = Comparator.comparingLong(Listed::createdNanos).reversed()
                .thenComparing(Listed::name);
    }

    private Listed listedRow(ResultSet rs, int row) throws SQLException {
        return new Listed(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4));
    }

    /** A batch's jobs in the list's order: SQL orders by time alone (collations order names each their own way). */
    private List<Job> jobs(List<Listed> rows) {
        return rows.stream().sorted(Listed.ORDER).map(row -> archived(row.plan(), row.status())).toList();
    }

    private Job archived(String plan, String status) {
        return new Job(json.readValue(plan, JobPlan.class), json.readValue(status, JobStatus.class).asArchived());
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

    private static String clip(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }

    private static String replica(Role role, int index) {
        return role.name().toLowerCase(Locale.ROOT) + "-" + index;
    }

    /**
     * Runs the statements in one transaction, again when a concurrent writer of the same rows got there
     * first (another replica of the service, or this one's recorder beside a submit): the database refuses
     * the second insert of a key, and the next try finds the first's row. Each write replaces what it
     * writes, so the later one stands, as if they had taken turns.
     */
    private void written(Runnable statements) {
        guarded(() -> {
            for (int tries = 1; ; tries++) {
                try {
                    transactions.executeWithoutResult(tx -> statements.run());
                    return null;
                } catch (DuplicateKeyException | ConcurrencyFailureException raced) {
                    if (tries == WRITE_TRIES) {
                        throw raced;
                    }
                }
            }
        });
    }

    private static <T> T guarded(Supplier<T> call) {
        try {
            return call.get();
        } catch (DataAccessException | TransactionException e) {
            throw new HistoryUnavailableException(e);
        }
    }
}
