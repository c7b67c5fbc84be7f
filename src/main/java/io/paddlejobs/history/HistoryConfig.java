package io.paddlejobs.history;

import io.paddlejobs.config.PlanningProperties;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.JobBackend;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.util.StringUtils;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** The job history on the application's one DataSource, what writes to it, and what trims it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(HistoryProperties.class)
class HistoryConfig {

    private static final Set<PosixFilePermission> PRIVATE_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");

    /**
     * {@code spring.datasource.*} as Spring Boot reads it; without a URL, the embedded H2 file
     * {@code <paddlejobs.history.dir>/jobs.mv.db}, by its absolute path (H2 refuses relative ones), in a
     * directory only the service may enter: the file holds every tenant's plans (their {@code env}
     * values), logs and metrics, and H2 makes its files as the process's umask says (readable by all).
     */
    @Bean
    HikariDataSource dataSource(DataSourceProperties properties, HistoryProperties history, Environment environment)
            throws IOException {
        DataSourceBuilder<HikariDataSource> builder = properties.initializeDataSourceBuilder().type(HikariDataSource.class);
        if (!StringUtils.hasText(properties.getUrl())) {
            Path dir = history.dir().toAbsolutePath().normalize();
            keepPrivate(dir);
            // Closed by Spring with the pool, not by H2's shutdown hook under the beans still writing.
            builder.url("jdbc:h2:file:" + dir.resolve("jobs") + ";DB_CLOSE_ON_EXIT=FALSE");
        }
        HikariDataSource pool = builder.build();
        // Spring Boot's own pool settings, bound here as its auto-configuration would (they are its settings, not ours).
        Binder.get(environment).bind("spring.datasource.hikari", Bindable.ofInstance(pool));
        return pool;
    }

    /** Made {@code rwx------} before H2 opens a file in it, and its files {@code rw-------} (an earlier version's too). */
    static void keepPrivate(Path dir) throws IOException {
        Files.createDirectories(dir.getParent());
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
        } catch (FileAlreadyExistsException exists) {
            Files.setPosixFilePermissions(dir, PRIVATE_DIRECTORY);
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(file -> Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)).toList()) {
                Files.setPosixFilePermissions(file, PRIVATE_FILE);
            }
        }
    }

    @Bean
    JdbcJobHistory jobHistory(JdbcClient db, PlatformTransactionManager transactions, JsonMapper json) {
        return new JdbcJobHistory(db, new TransactionTemplate(transactions), json, Clock.systemUTC());
    }

    @Bean(destroyMethod = "close")
    HistoryRecorder historyRecorder(JobBackend backend, JdbcJobHistory history, HistoryProperties properties,
                                    DataSourceProperties dataSource, BackendProperties shared, PlanningProperties planning) {
        // The embedded file is on the service's disk; a database of its own has a disk the service cannot see.
        DiskFloor floor = DiskFloor.NONE;
        if (!StringUtils.hasText(dataSource.getUrl())) {
            properties.requireFloorHoldsOneJobsLogs(planning.limits(), shared.minFreeSpace());
            floor = new DiskFloor(properties.dir().toAbsolutePath().normalize(), shared.minFreeSpace());
        }
        return new HistoryRecorder(backend, history, Math.toIntExact(properties.maxLogSize().toBytes()),
                Math.toIntExact(properties.maxEarlierLogSize().toBytes()), HistoryRecorder.RETRY_EVERY, floor);
    }

    @Bean(destroyMethod = "close")
    HistoryRetention historyRetention(JdbcClient db, HistoryProperties properties) {
        return new HistoryRetention(db, properties.retention(), Clock.systemUTC());
    }
}
