package io.paddlejobs.history;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Removes finished jobs from the history beyond {@code paddlejobs.history.retention}'s age and count,
 * at start and then every {@link #CHECK_EVERY}. Jobs that have not finished are never removed. The count
 * is per namespace: one tenant's many jobs never evict another's.
 *
 * <p>It also sweeps what no job owns: a row a submit wrote whose job the backend never took (the service
 * stopped between the two) once no status came for {@link #UNRECORDED_AFTER}, logs, metrics and
 * transitions whose job's row is gone, and tombstones ({@link JdbcJobHistory#delete}) older than
 * {@link #TOMBSTONE_AGE}, by when no write read before the delete is still to come.
 */
final class HistoryRetention implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HistoryRetention.class);

    private final JdbcClient db;
    private final HistoryProperties.Retention limits;
    private final Clock clock;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread retention = new Thread(task, "job-history-retention");
        retention.setDaemon(true);
        return retention;
    });

    HistoryRetention(JdbcClient db, HistoryProperties.Retention limits, Clock clock) {
        this.db = db;
        this.limits = limits;
        this.clock = clock;
        thread.scheduleWithFixedDelay(this::enforceLogged, 0, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * How often the limits are enforced: finished jobs outlive their limits by at most this, a few of them
     * among the thousands kept, while a check's queries over the whole history run seldom.
     */
    static final Duration CHECK_EVERY = Duration.ofMinutes(10);

    /** How long a submit's row may wait for its job's first status before it counts as never created. */
    static final Duration UNRECORDED_AFTER = Duration.ofMinutes(10);
    /** How long a delete's tombstone is kept. */
    static final Duration TOMBSTONE_AGE = Duration.ofHours(1);

    /** @return how many jobs were removed */
    int enforce() {
        long now = clock.millis();
        int removed = forgetAll(db.sql("select namespace, name from job_history where finished_at < ?")
                .params(now - limits.maxAge().toMillis()).query(KEY).list());
        List<String> crowded = db.sql("select namespace from job_history where finished_at is not null"
                + " group by namespace having count(*) > ?").params(limits.maxCount()).query(String.class).list();
        for (String namespace : crowded) {
            removed += forgetAll(db.sql("select namespace, name from job_history where namespace = ?"
                            + " and finished_at is not null order by finished_at desc, name offset ? rows")
                    .params(namespace, limits.maxCount()).query(KEY).list());
        }
        removed += forgetAll(db.sql("select namespace, name from job_history where status_json is null"
                + " and created_at < ?").params(now - UNRECORDED_AFTER.toMillis()).query(KEY).list());
        for (String table : JdbcJobHistory.TABLES.subList(1, JdbcJobHistory.TABLES.size())) {
            db.sql("delete from " + table + " where not exists (select 1 from job_history h"
                    + " where h.namespace = " + table + ".namespace and h.name = " + table + ".name)").update();
        }
        db.sql("delete from job_tombstones where deleted_at < ?").params(now - TOMBSTONE_AGE.toMillis()).update();
        return removed;
    }

    private static final RowMapper<String[]> KEY = (rs, row) -> new String[] {rs.getString(1), rs.getString(2)};

    private int forgetAll(List<String[]> jobs) {
        int removed = 0;
        for (String[] job : jobs) {
            if (JdbcJobHistory.forget(db, job[0], job[1])) {
                removed++;
            }
        }
        return removed;
    }

    private void enforceLogged() {
        try {
            int removed = enforce();
            if (removed > 0) {
                log.info("Job history: removed {} jobs beyond the retention limits or never created", removed);
            }
        } catch (RuntimeException e) {
            log.warn("Could not enforce the job history's retention: {}", e.toString());
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdownNow();
        thread.awaitTermination(5, TimeUnit.SECONDS);
    }
}
