package io.paddlejobs.history;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import io.paddlejobs.testing.PostgresServer;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** A history store on a real database, migrated as the service migrates it, and jobs to keep in it. */
public final class HistoryStores {

    static final JsonMapper JSON = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new PlanningJsonModule()).build();
    private static final JobPlanner PLANNER = new JobPlanner(Settings.planningPolicyWithoutGpuRules());
    /** Every replica on 127.0.0.1, its data under /data/<namespace>. */
    static final Site LOOPBACK = new Site() {
        @Override
        public String host(String namespace, String job, Role role, int index) {
            return "127.0.0.1";
        }

        @Override
        public String dataPath(String namespace, String job) {
            return "/data/" + namespace;
        }
    };

    private HistoryStores() {
    }

    /** A pool on the database at this URL, as the service keeps one (Hikari, Spring Boot's default). */
    static HikariDataSource pooled(String url, String user, String password) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        pool.setUsername(user);
        pool.setPassword(password);
        return pool;
    }

    /** A new, empty database on the test run's PostgreSQL server ({@link PostgresServer}), behind a pool. */
    static HikariDataSource newPostgresDatabase() {
        PostgresServer server = PostgresServer.current();
        return pooled(server.newDatabase(), server.user(), server.password());
    }

    /** Applies the service's migrations to the database; @return how many were applied. */
    static int migrate(DataSource database) {
        return Flyway.configure().dataSource(database).load().migrate().migrationsExecuted;
    }

    /** The service's history on an embedded H2 file in the directory, migrated; closed with the pool it returns. */
    public static HikariDataSource embedded(Path dir) {
        HikariDataSource pool = pooled("jdbc:h2:file:" + dir.resolve("jobs"), "", "");
        migrate(pool);
        return pool;
    }

    /** The service's history on the database, as the job service sees it. */
    public static JobHistory jobHistory(DataSource database) {
        return history(database, Clock.systemUTC());
    }

    static JdbcJobHistory history(DataSource database, Clock clock) {
        return new JdbcJobHistory(JdbcClient.create(database),
                new TransactionTemplate(new DataSourceTransactionManager(database)), JSON, clock);
    }

    static JobPlan plan(String namespace, String name) {
        return PLANNER.plan(JobRequests.named(name, "python train.py").build(), namespace, LOOPBACK);
    }

    static Job job(JobPlan plan, JobPhase phase, String reason, Instant createdAt, Instant finishedAt) {
        RoleCounts none = new RoleCounts(1, 0, 0, 0, 0);
        return new Job(plan, new JobStatus(phase, reason, reason + " in words", createdAt, createdAt, finishedAt, null,
                none, none, List.of()));
    }
}
