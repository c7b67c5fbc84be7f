package io.paddlejobs.history;

import io.paddlejobs.job.HistoryUnavailableException;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Clock;
import java.time.Instant;
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
 * log tail. Every write commits before it returns; a database that cannot be reached is a
 * {@link HistoryUnavailableException}.
 */
final class JdbcJobHistory implements JobHistory {

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
            db.sql("delete from job_history where namespace = ? and name = ?").params(plan.namespace(), plan.name()).update();
            db.sql("insert into job_history (namespace, name, created_at, phase, plan_json) values (?, ?, ?, ?, ?)")
                    .params(plan.namespace(), plan.name(), clock.millis(), "Pending", json.writeValueAsString(plan))
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
            int updated = db.sql("update job_history set phase = ?, finished_at = ?, status_json = ?, plan_json = ?"
                            + " where namespace = ? and name = ?")
                    .params(phase, millis(status.finishedAt()), json.writeValueAsString(status),
                            json.writeValueAsString(job.plan()), key.namespace(), key.name())
                    .update();
            if (updated == 0) {
                db.sql("insert into job_history (namespace, name, created_at, finished_at, phase, plan_json, status_json)"
                                + " values (?, ?, ?, ?, ?, ?, ?)")
                        .params(key.namespace(), key.name(), createdMillis(status), millis(status.finishedAt()), phase,
                                json.writeValueAsString(job.plan()), json.writeValueAsString(status))
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
    public void keepLogTail(JobKey key, Role role, int index, String lines) {
        String replica = replica(role, index);
        written(() -> {
            db.sql("delete from job_log_tails where namespace = ? and name = ? and replica = ?")
                    .params(key.namespace(), key.name(), replica).update();
            db.sql("insert into job_log_tails (namespace, name, replica, lines) values (?, ?, ?, ?)")
                    .params(key.namespace(), key.name(), replica, lines).update();
        });
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
    public List<Job> list(String namespace) {
        return guarded(() -> db.sql("select plan_json, status_json from job_history where namespace = ?"
                        + " and status_json is not null")
                .params(namespace)
                .query((rs, row) -> archived(rs.getString(1), rs.getString(2)))
                .list());
    }

    @Override
    public Optional<String> logTail(JobKey key, Role role, int index) {
        return guarded(() -> db.sql("select lines from job_log_tails where namespace = ? and name = ? and replica = ?")
                .params(key.namespace(), key.name(), replica(role, index))
                .query(String.class)
                .optional());
    }

    @Override
    public boolean delete(JobKey key) {
        return Boolean.TRUE.equals(guarded(() -> transactions.execute(tx -> {
            Object[] job = {key.namespace(), key.name()};
            db.sql("delete from job_transitions where namespace = ? and name = ?").params(job).update();
            db.sql("delete from job_log_tails where namespace = ? and name = ?").params(job).update();
            return db.sql("delete from job_history where namespace = ? and name = ?").params(job).update() > 0;
        })));
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

    private Job archived(String plan, String status) {
        return new Job(json.readValue(plan, JobPlan.class), json.readValue(status, JobStatus.class).asArchived());
    }

    private long createdMillis(JobStatus status) {
        return status.createdAt() != null ? status.createdAt().toEpochMilli() : clock.millis();
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
