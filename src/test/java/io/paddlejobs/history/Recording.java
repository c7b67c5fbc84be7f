package io.paddlejobs.history;

import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the recorder's tests share: a migrated store (the embedded H2 file unless a subclass gives another),
 * the history on it, a backend that runs nothing, and the recorder between them, whose retries wait an hour
 * (a job waiting for one still waits when a test looks).
 */
abstract class Recording {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    HikariDataSource database;
    JdbcJobHistory history;
    HeldJobBackend backend;
    HistoryRecorder recorder;

    /** A new, empty database of the kind under test. */
    HikariDataSource emptyDatabase(Path dir) {
        return HistoryStores.embedded(dir);
    }

    /** The free-space floor the recorder keeps logs above: none unless a test is about it. */
    DiskFloor floor() {
        return DiskFloor.NONE;
    }

    @BeforeEach
    void recording() {
        database = emptyDatabase(dir);
        HistoryStores.migrate(database);
        history = HistoryStores.history(database, Clock.systemUTC());
        backend = new HeldJobBackend();
        recorder = new HistoryRecorder(backend, history, 1 << 20, 1 << 16, Duration.ofHours(1), floor());
    }

    /** Stops the recorder once it has written everything it was told. */
    void stopRecorder() throws InterruptedException {
        recorder.close();
        await().atMost(DEADLINE).until(recorder::stopped);
    }

    @AfterEach
    void stop() throws InterruptedException {
        recorder.close();
        database.close();
    }
}
