package io.paddlejobs.backend.slurm;

import static org.junit.jupiter.api.Assertions.fail;

import io.paddlejobs.PaddleJobsApplication;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real throw-away Slurm cluster for the tests ({@code src/test/slurm/slurm-up.sh}): munged,
 * slurmctld, four slurmd as fake nodes and slurmrestd, all in one temporary directory on
 * 127.0.0.1. It starts once per test run, for the first class that asks, and stops when the run
 * ends, cancelling what still runs. Without Slurm's binaries (or not as root) the tests are
 * skipped, unless {@code -Dslurm.required=true} says that is a failure (as on CI).
 *
 * <p>{@code -Dslurm.generation} picks the Slurm: {@code 22.05}, the host's (Debian bookworm), or
 * {@code 26.05}, from the root file system {@code .ci/prepare-slurm} builds from Debian sid
 * ({@code -Dslurm.rootfs}, default {@code $PADDLEJOBS_CACHE/slurm-26.05/rootfs}), whose daemons and
 * tools run under bubblewrap; the build runs the Slurm tests once per generation.
 */
public final class SlurmCluster implements BeforeAllCallback {

    private static final Path SCRIPTS = Path.of(System.getProperty("project.basedir", ".")).resolve("src/test/slurm");
    private static final List<String> BINARIES = List.of("/usr/sbin/munged", "/usr/sbin/mungekey", "/usr/sbin/slurmctld",
            "/usr/sbin/slurmd", "/usr/sbin/slurmrestd", "/usr/bin/sbatch", "/usr/bin/scontrol", "/usr/bin/sinfo");
    /** The generation this test run is on. */
    static final String GENERATION = System.getProperty("slurm.generation", "22.05");
    private static final int NODES = 4;

    private static volatile Running current;

    /** The cluster, once a class's before-all has started it. */
    public static Running current() {
        if (current == null) {
            throw new IllegalStateException("the Slurm cluster is not running: add @ExtendWith(SlurmCluster.class)");
        }
        return current;
    }

    /**
     * Points a service under test at this cluster: the Slurm backend, its shared directory, the
     * cluster's configuration, and a quick status poll (so tests see changes soon).
     */
    static void serve(DynamicPropertyRegistry registry, Path sharedDir) {
        registry.add("paddlejobs.backend", () -> "slurm");
        registry.add("paddlejobs.slurm.shared-dir", sharedDir::toString);
        registry.add("paddlejobs.slurm.slurm-conf", () -> current().slurmConf());
        registry.add("paddlejobs.slurm.bin-dir", () -> current().binDir());
        registry.add("paddlejobs.slurm.poll-interval", () -> "250ms");
    }

    /** Switches a service {@link #serve} points at this cluster to slurmrestd ({@code client=rest}) with a JWT it mints. */
    static void serveRest(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.slurm.client", () -> "rest");
        registry.add("paddlejobs.slurm.rest-url", () -> current().restUrl());
        registry.add("paddlejobs.slurm.jwt-key", () -> current().jwtKey());
        // The test cluster's files belong to root; jobs run as the token's user.
        registry.add("paddlejobs.slurm.rest-user", () -> "root");
        // The service has no Slurm configuration or tools of its own here: only slurmrestd is used.
        registry.add("paddlejobs.slurm.slurm-conf", () -> "/nonexistent/slurm.conf");
        registry.add("paddlejobs.slurm.bin-dir", () -> "/nonexistent");
    }

    /** A whole service of its own (not the test's context) on this cluster, for tests that stop and start it again. */
    static ConfigurableApplicationContext startService(Path sharedDir, String... moreArguments) {
        List<String> arguments = new ArrayList<>(List.of(
                "--server.port=0",
                "--paddlejobs.backend=slurm",
                "--paddlejobs.slurm.shared-dir=" + sharedDir,
                "--paddlejobs.slurm.slurm-conf=" + current().slurmConf(),
                "--paddlejobs.slurm.bin-dir=" + current().binDir(),
                "--paddlejobs.slurm.poll-interval=250ms"));
        arguments.addAll(List.of(moreArguments));
        return new SpringApplicationBuilder(PaddleJobsApplication.class).run(arguments.toArray(String[]::new));
    }

    static boolean required() {
        return Boolean.getBoolean("slurm.required");
    }

    /** The root file system of {@code -Dslurm.generation=26.05}; {@code null} for the host's Slurm. */
    static Path rootfs() {
        if (GENERATION.equals("22.05")) {
            return null;
        }
        String given = System.getProperty("slurm.rootfs", "");
        if (!given.isBlank()) {
            return Path.of(given);
        }
        String cache = System.getenv("PADDLEJOBS_CACHE");
        Path root = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache", "paddle-jobs");
        return root.resolve("slurm-" + GENERATION).resolve("rootfs");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path rootfs = rootfs();
        List<String> missing = BINARIES.stream()
                .map(b -> rootfs == null ? Path.of(b) : rootfs.resolve(b.substring(1)))
                .filter(b -> !Files.isExecutable(b)).map(Path::toString).toList();
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!missing.isEmpty() || !root) {
            String why = !missing.isEmpty()
                    ? "Slurm " + GENERATION + " is not installed (missing " + missing + "; .ci/prepare-slurm installs it)"
                    : "the test cluster's daemons need root";
            if (required()) {
                fail(why + "; -Dslurm.required=true makes that a failure");
            }
            Assumptions.abort(why);
        }
        current = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .computeIfAbsent(SlurmCluster.class, key -> Running.start(), Running.class);
    }

    /** A running cluster; closing it (at the end of the test run) stops it. */
    public static final class Running implements AutoCloseable {

        final Path dir;
        final Map<String, String> env;
        final long startMillis;
        private long stopMillis;

        private Running(Path dir, Map<String, String> env, long startMillis) {
            this.dir = dir;
            this.env = env;
            this.startMillis = startMillis;
        }

        static Running start() {
            try {
                Path dir = Files.createTempDirectory("slurm-test");
                long t0 = System.nanoTime();
                Path rootfs = rootfs();
                SlurmCluster.run(rootfs == null ? Map.of() : Map.of("ROOTFS", rootfs.toString()),
                        SCRIPTS.resolve("slurm-up.sh").toString(), dir.toString(), Integer.toString(freePortBase()));
                long millis = (System.nanoTime() - t0) / 1_000_000;
                Map<String, String> env = new HashMap<>();
                for (String line : Files.readAllLines(dir.resolve("env.sh"))) {
                    String[] pair = line.replaceFirst("^export ", "").split("=", 2);
                    env.put(pair[0], pair[1]);
                }
                System.out.printf("[slurm-test] Slurm %s cluster of %d nodes up in %d ms under %s%n", GENERATION, NODES,
                        millis, dir);
                return new Running(dir, env, millis);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the Slurm test cluster: " + e.getMessage(), e);
            }
        }

        /** How long the last {@link #close()} took, in ms; 0 before. */
        long stopMillis() {
            return stopMillis;
        }

        public String slurmConf() {
            return env.get("SLURM_CONF");
        }

        /** The directory of the Slurm commands to run; empty for the host's, on the {@code PATH}. */
        public String binDir() {
            return env.getOrDefault("SLURM_BIN", "");
        }

        String restUrl() {
            return env.get("SLURMRESTD_URL");
        }

        String jwtKey() {
            return env.get("SLURM_JWT_KEY");
        }

        /** Runs a Slurm command against this cluster. @return its standard output */
        public String command(String... command) {
            return run(command);
        }

        /** The pid of one fake node's slurmd. */
        public long slurmdPid(String node) throws IOException {
            return Long.parseLong(Files.readString(dir.resolve("run/slurmd-" + node + ".pid")).strip());
        }

        /**
         * Kills what is left on the nodes of a Slurm job whose node daemon was killed under it: each of its
         * slurmstepds (named {@code slurmstepd: [<job>.<step>]}) with every descendant, and waits until
         * all of them are gone. The batch step's script writes the job's records into the shared
         * directory once its steps end, so without this it can write while JUnit removes that directory.
         */
        public void killLeftoversOf(String slurmJobId) {
            List<ProcessHandle> leftovers = ProcessHandle.allProcesses()
                    .filter(p -> commandLine(p).startsWith("slurmstepd: [" + slurmJobId + "."))
                    .flatMap(step -> java.util.stream.Stream.concat(java.util.stream.Stream.of(step), step.descendants()))
                    .toList();
            System.out.printf("[slurm-test] killing %d leftover processes of job %s%n", leftovers.size(), slurmJobId);
            leftovers.forEach(ProcessHandle::destroyForcibly);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> leftovers.stream().noneMatch(ProcessHandle::isAlive));
        }

        /** A process's command line as the process itself shows it (a slurmstepd rewrites its own). */
        private static String commandLine(ProcessHandle process) {
            try {
                return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline")).replace('\0', ' ');
            } catch (IOException | RuntimeException e) {
                return ""; // gone, or not ours to read
            }
        }

        /** Starts a fake node's slurmd again and waits until Slurm counts the node back in. */
        public void restartSlurmd(String node) {
            command(binDir().isEmpty() ? "/usr/sbin/slurmd" : "slurmd", "-f", slurmConf(), "-N", node);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .pollInterval(java.time.Duration.ofMillis(200))
                    .until(() -> command("sinfo", "-h", "-n", node, "-o", "%t").strip().matches("idle|mix|alloc|plnd"));
        }

        @Override
        public void close() {
            long t0 = System.nanoTime();
            // slurm-down.sh runs scancel and squeue: the cluster's own, from the PATH it is given.
            Map<String, String> path = binDir().isEmpty() ? Map.of()
                    : Map.of("PATH", binDir() + java.io.File.pathSeparator + System.getenv("PATH"));
            SlurmCluster.run(path, SCRIPTS.resolve("slurm-down.sh").toString(), dir.toString());
            stopMillis = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("[slurm-test] cluster stopped in %d ms (it started in %d ms)%n", stopMillis, startMillis);
        }

        private String run(String... command) {
            String[] line = command.clone();
            if (!binDir().isEmpty() && !line[0].contains("/")) {
                line[0] = Path.of(binDir(), line[0]).toString();
            }
            return SlurmCluster.run(env, line);
        }
    }

    private static String run(String... command) {
        return run(Map.of(), command);
    }

    private static String run(Map<String, String> env, String... command) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + Arrays.toString(command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A base port with the cluster's ports (controller, REST, one per node) all free on 127.0.0.1. */
    private static int freePortBase() throws IOException {
        for (int base = 42000 + (int) (ProcessHandle.current().pid() % 100) * 20; base < 60000; base += 20) {
            if (allFree(base, NODES + 2)) {
                return base;
            }
        }
        throw new IOException("no free block of ports for the Slurm test cluster");
    }

    private static boolean allFree(int base, int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port = base; port < base + count; port++) {
                held.add(new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress()));
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a probe socket cannot matter
                }
            }
        }
    }
}
