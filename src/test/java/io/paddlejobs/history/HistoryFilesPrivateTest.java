package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.paddlejobs.testing.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.core.env.StandardEnvironment;

/**
 * Red team, round 3, M4: the embedded history (the default, without PostgreSQL) holds every
 * tenant's plans, {@code env} values included, and H2 made its file readable by every local user.
 * The service's data source makes the directory the service's alone before H2 opens a file in it,
 * an earlier version's directory and file included; another user then reads nothing.
 */
@Tag("redteam")
class HistoryFilesPrivateTest {

    @TempDir
    Path dataRoot;

    @Test
    void theEmbeddedHistoryIsReadableByTheServiceAloneAnEarlierVersionsFileIncluded() throws Exception {
        Path dir = Files.createDirectories(dataRoot.resolve("history"));
        Files.setPosixFilePermissions(dataRoot, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // as an earlier version left it
        Path earlier = Files.writeString(dir.resolve("jobs.trace.db"), "API_KEY alice-key-123");
        Files.setPosixFilePermissions(earlier, PosixFilePermissions.fromString("rw-r--r--"));
        DataSourceProperties properties = new DataSourceProperties();
        properties.afterPropertiesSet();

        try (HikariDataSource pool = new HistoryConfig().dataSource(properties,
                Settings.of(HistoryProperties.class, "dir", dir), new StandardEnvironment());
             Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("create table secrets (v varchar(64)); insert into secrets values ('API_KEY alice-key-123')");
        }

        assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(earlier)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(dir.resolve("jobs.mv.db")).exists();
        if ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0) {
            for (Path file : new Path[] {dir.resolve("jobs.mv.db"), earlier}) {
                Process other = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "grep", "-c", "API_KEY", file.toString()).redirectErrorStream(true).start();
                String said = new String(other.getInputStream().readAllBytes());
                assertThat(other.waitFor()).as("another user reading %s: %s", file, said).isEqualTo(2);
                assertThat(said).contains("Permission denied");
            }
        }
    }
}
