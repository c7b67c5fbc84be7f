package io.paddlejobs.history;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Removes finished jobs from the history beyond {@code paddlejobs.history.retention}'s age and count,
 * at start and then every {@code check-every}. Jobs that have not finished are never removed.
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
        long every = limits.checkEvery().toMillis();
        thread.scheduleWithFixedDelay(this::enforceLogged, 0, every, TimeUnit.MILLISECONDS);
    }

    /** @return how many jobs were removed */
    int enforce() {
        long oldest = clock.millis() - limits.maxAge().toMillis();
        List<Object[]> expired = db.sql("select namespace, name from job_history where finished_at < ?")
                .params(oldest).query((rs, row) -> new Object[] {rs.getString(1), rs.getString(2)}).list();
        List<Object[]> beyondCount = db.sql("select namespace, name from job_history where finished_at is not null"
                        + " order by finished_at desc, namespace, name offset ? rows")
                .params(limits.maxCount()).query((rs, row) -> new Object[] {rs.getString(1), rs.getString(2)}).list();
        int removed = 0;
        for (List<Object[]> jobs : List.of(expired, beyondCount)) {
            for (Object[] job : jobs) {
                if (JdbcJobHistory.forget(db, (String) job[0], (String) job[1])) {
                    removed++;
                }
            }
        }
        return removed;
    }

    private void enforceLogged() {
        try {
            int removed = enforce();
            if (removed > 0) {
                log.info("Job history: removed {} finished jobs beyond the retention limits", removed);
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
