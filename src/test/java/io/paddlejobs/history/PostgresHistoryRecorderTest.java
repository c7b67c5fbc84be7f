package io.paddlejobs.history;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.testing.PostgresServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link HistoryRecorderTest} on PostgreSQL, whose text holds no NUL. */
@Tag("postgres")
@ExtendWith(PostgresServer.class)
class PostgresHistoryRecorderTest extends HistoryRecorderTest {

    @Override
    HikariDataSource emptyDatabase(Path dir) {
        return HistoryStores.newPostgresDatabase();
    }
}
