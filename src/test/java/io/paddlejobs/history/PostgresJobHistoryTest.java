package io.paddlejobs.history;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.testing.PostgresServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/** The history on PostgreSQL, as deployments run it: each test on a new database, migrated from empty. */
@Tag("postgres")
@ExtendWith(PostgresServer.class)
class PostgresJobHistoryTest extends JdbcJobHistoryTest {

    @Override
    HikariDataSource emptyDatabase(Path dir) {
        return HistoryStores.newPostgresDatabase();
    }
}
