package io.paddlejobs.history;

import io.paddlejobs.job.JobBackend;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
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

    /**
     * {@code spring.datasource.*} as Spring Boot reads it; without a URL, the embedded H2 file
     * {@code <paddlejobs.history.dir>/jobs.mv.db}, by its absolute path (H2 refuses relative ones).
     */
    @Bean
    HikariDataSource dataSource(DataSourceProperties properties, HistoryProperties history, Environment environment) {
        DataSourceBuilder<HikariDataSource> builder = properties.initializeDataSourceBuilder().type(HikariDataSource.class);
        if (!StringUtils.hasText(properties.getUrl())) {
            // Closed by Spring with the pool, not by H2's shutdown hook under the beans still writing.
            builder.url("jdbc:h2:file:" + history.dir().toAbsolutePath().normalize().resolve("jobs") + ";DB_CLOSE_ON_EXIT=FALSE");
        }
        HikariDataSource pool = builder.build();
        // Spring Boot's own pool settings, bound here as its auto-configuration would (they are its settings, not ours).
        Binder.get(environment).bind("spring.datasource.hikari", Bindable.ofInstance(pool));
        return pool;
    }

    @Bean
    JdbcJobHistory jobHistory(JdbcClient db, PlatformTransactionManager transactions, JsonMapper json) {
        return new JdbcJobHistory(db, new TransactionTemplate(transactions), json, Clock.systemUTC());
    }

    @Bean(destroyMethod = "close")
    HistoryRecorder historyRecorder(JobBackend backend, JdbcJobHistory history, HistoryProperties properties) {
        return new HistoryRecorder(backend, history, Math.toIntExact(properties.maxLogSize().toBytes()),
                properties.retryEvery());
    }

    @Bean(destroyMethod = "close")
    HistoryRetention historyRetention(JdbcClient db, HistoryProperties properties) {
        return new HistoryRetention(db, properties.retention(), Clock.systemUTC());
    }
}
