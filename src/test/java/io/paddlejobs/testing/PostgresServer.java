package io.paddlejobs.testing;

import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A throw-away PostgreSQL server from Debian's packages ({@code postgresql}, see .ci/prepare-postgres),
 * as a deployment's history store: its own cluster in a temporary directory, listening on 127.0.0.1 on a
 * free port, started once per test run and stopped at its end. Each test gets a database of its own
 * ({@link #newDatabase}). Without PostgreSQL the tests that use it are skipped, unless
 * {@code -Dpostgres.required=true} says that is a failure (as on CI).
 *
 * <p>PostgreSQL refuses to run as root: run as root, the cluster belongs to {@code nobody}.
 */
public final class PostgresServer implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {

    private static final Duration START_DEADLINE = Duration.ofSeconds(60);
    private static final String SUPERUSER = "history";
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static PostgresServer running;

    private final Path bin;
    private final Path dir;
    private final int port;
    private Process server;

    /** For JUnit's {@code @ExtendWith}: the server itself is made once, in {@link #beforeAll}. */
    public PostgresServer() {
        this.bin = null;
        this.dir = null;
        this.port = 0;
    }

    private PostgresServer(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        synchronized (PostgresServer.class) {
            if (running == null) {
                running = start(requiredBinaries());
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(PostgresServer.class, running);
            }
        }
    }

    /**
     * A server of the caller's own, beside the run's, to {@link #stop} and {@link #startAgain} (a store
     * that is away for a while); the caller closes it. Skips or fails without PostgreSQL as the extension does.
     */
    public static PostgresServer startOwn() {
        return start(requiredBinaries());
    }

    private static Path requiredBinaries() {
        Path bin = binaries().orElse(null);
        if (bin == null) {
            String why = "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin; see .ci/prepare-postgres)";
            if (Boolean.getBoolean("postgres.required")) {
                fail(why + "; -Dpostgres.required=true makes that a failure");
            }
            Assumptions.abort(why);
        }
        return bin;
    }

    /** Stops the server at once (PostgreSQL's fast shutdown: open connections are cut), keeping its data. */
    public void stop() {
        try {
            run(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w", "stop");
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("postgres did not stop within 30 s");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the stopped server again, on its port, with its data. */
    public void startAgain() {
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server of this test run (after {@link #beforeAll}). */
    public static PostgresServer current() {
        return running;
    }

    /** A new, empty database; @return its JDBC URL. */
    public String newDatabase() {
        String name = "history_" + DATABASES.incrementAndGet();
        try (Connection admin = connect("postgres")) {
            admin.createStatement().execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
        return url(name);
    }

    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public String user() {
        return SUPERUSER;
    }

    /** The cluster trusts local connections; the service's settings still name a password, as deployments do. */
    public String password() {
        return "unused";
    }

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), SUPERUSER, password());
    }

    private static Optional<Path> binaries() {
        Path versions = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(versions)) {
            return Optional.empty();
        }
        try (Stream<Path> each = Files.list(versions)) {
            return each.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(Path::toString));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PostgresServer start(Path bin) {
        try {
            Path dir = Files.createTempDirectory("postgres-");
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
            Path data = dir.resolve("data");
            run(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", SUPERUSER, "--auth=trust",
                    "--no-sync", "-E", "UTF8");
            PostgresServer started = new PostgresServer(bin, dir, freePort());
            started.launch();
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void launch() throws IOException {
        // fsync off: the cluster is thrown away; the service's own writes commit as on any server.
        Process launched = new ProcessBuilder(asOwner(List.of(bin.resolve("postgres").toString(), "-D",
                dir.resolve("data").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-k", dir.toString(),
                "-c", "fsync=off")))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile()))
                .start();
        server = launched;
        await().atMost(START_DEADLINE).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!launched.isAlive()) {
                throw new IllegalStateException("postgres exited: " + Files.readString(dir.resolve("server.log")));
            }
            try (Connection ignored = connect("postgres")) {
                return true;
            } catch (SQLException notYet) {
                return false;
            }
        });
    }

    private static void run(String... command) throws IOException {
        Process process = new ProcessBuilder(asOwner(List.of(command))).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The command as the cluster's owner: this user, or {@code nobody} when this is root. */
    private static List<String> asOwner(List<String> command) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return command;
        }
        List<String> asNobody = new ArrayList<>(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                "--"));
        asNobody.addAll(command);
        return asNobody;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** At the end of the test run: the server stops, and its cluster is removed. */
    @Override
    public void close() {
        // Fast shutdown, as stop: a smart one (SIGTERM) would wait for pools the tests left open.
        if (server.isAlive()) {
            try {
                stop();
            } catch (RuntimeException e) {
                server.destroyForcibly();
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
