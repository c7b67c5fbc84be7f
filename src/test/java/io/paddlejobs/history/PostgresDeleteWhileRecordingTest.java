package io.paddlejobs.history;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.testing.PostgresServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link DeleteWhileRecordingTest} on PostgreSQL, whose row locks and snapshots are not H2's. */
@Tag("postgres")
@ExtendWith(PostgresServer.class)
class PostgresDeleteWhileRecordingTest extends DeleteWhileRecordingTest {

    @Override
    HikariDataSource emptyDatabase(Path dir) {
        return HistoryStores.newPostgresDatabase();
    }
}
