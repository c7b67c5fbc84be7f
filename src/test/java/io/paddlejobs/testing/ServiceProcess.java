package io.paddlejobs.testing;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.io.file.PathUtils;

/**
 * The service in a JVM of its own on a data root, as a user starts it (so that what it holds can be
 * measured apart from its clients'); stopped with SIGTERM on close, or killed ({@link #kill}). {@code -Dbench.jvm-args=...}
 * passes options to its JVM (a profiler, another collector).
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration READY_DEADLINE = Duration.ofSeconds(120);
    private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");
    private static final String CLASS_PATH = System.getProperty("java.class.path");
    private static final List<String> JVM_ARGS = System.getProperty("bench.jvm-args", "").isBlank() ? List.of()
            : List.of(System.getProperty("bench.jvm-args").trim().split("\\s+"));
    /** The tests' compiler choice (the pom's test.jvm.options) holds for the services they start too. */
    private static final List<String> COMPILERS = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(option -> option.startsWith("-XX:TieredStopAtLevel=") || option.equals("-XX:+TieredCompilation"))
            .toList();

    private final Process process;
    private final int port;
    private final StringBuilder output;

    private ServiceProcess(Process process, int port, StringBuilder output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    /** Starts it with {@code --name=value} arguments beside the data root, and waits until it is ready. */
    public static ServiceProcess start(Path root, String... arguments) throws IOException {
        return start(List.of(), CLASS_PATH, List.of(), root, arguments);
    }

    /**
     * As {@link #start}, its JVM started through {@code prefix}, a program that makes it another user of the
     * machine, one that reads the build's files through {@code CAP_DAC_READ_SEARCH}. Spring asks
     * {@code access(2)} whether its configuration files are readable, and {@code access(2)} looks past that
     * capability: under a private directory (a clone in a fresh {@code mktemp -d}) {@code application.yaml}
     * would seem absent and the service would start without it. So the class path's directories are copied
     * into {@code readable}, which that user may read, and the JVM reads them there.
     */
    public static ServiceProcess startAsAnotherUser(List<String> prefix, Path readable, Path root, String... arguments)
            throws IOException {
        return start(prefix, copiedClassPath(readable), List.of(), root, arguments);
    }

    /** As {@link #start}, with options for its JVM ({@code -Xmx160m}: what a small heap holds). */
    public static ServiceProcess startWithJvmOptions(List<String> jvmOptions, Path root, String... arguments)
            throws IOException {
        return start(List.of(), CLASS_PATH, jvmOptions, root, arguments);
    }

    private static ServiceProcess start(List<String> prefix, String classPath, List<String> jvmOptions, Path root,
                                        String... arguments) throws IOException {
        Files.createDirectories(root);
        List<String> command = new ArrayList<>(jvmOptions);
        command.addAll(List.of("io.paddlejobs.PaddleJobsApplication",
                "--server.port=0", "--paddlejobs.local.data-root=" + root, "--spring.main.banner-mode=off"));
        command.addAll(List.of(arguments));
        AtomicReference<Integer> port = new AtomicReference<>();
        StringBuilder output = new StringBuilder();
        Process process = java(prefix, classPath, command, line -> {
            Matcher matcher = STARTED.matcher(line);
            if (matcher.find()) {
                port.set(Integer.parseInt(matcher.group(1)));
            }
        }, output);
        await().atMost(READY_DEADLINE).until(() -> port.get() != null || !process.isAlive());
        if (!process.isAlive()) {
            throw new IllegalStateException("the service did not start:\n" + output);
        }
        ServiceClient client = new ServiceClient(port.get());
        await().atMost(READY_DEADLINE).pollInterval(Duration.ofMillis(10))
                .until(() -> client.get("/actuator/health/readiness").statusCode() == 200);
        return new ServiceProcess(process, port.get(), output);
    }

    /**
     * Another main class of the test sources in a JVM of its own (part of the service, without its start-up
     * time), ready once it prints a line that matches {@code ready}; it serves no port.
     */
    public static ServiceProcess startMain(String mainClass, Pattern ready, String... arguments) throws IOException {
        // Started often and briefly: C1 alone and the serial collector start it in about half the time.
        List<String> command = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", mainClass));
        command.addAll(List.of(arguments));
        AtomicReference<Boolean> isReady = new AtomicReference<>(false);
        StringBuilder output = new StringBuilder();
        Process process = java(List.of(), CLASS_PATH, command, line -> {
            if (ready.matcher(line).find()) {
                isReady.set(true);
            }
        }, output);
        await().atMost(READY_DEADLINE).pollInterval(Duration.ofMillis(10)).until(() -> isReady.get() || !process.isAlive());
        if (!isReady.get()) {
            throw new IllegalStateException(mainClass + " did not start:\n" + output);
        }
        return new ServiceProcess(process, -1, output);
    }

    /**
     * A JVM on the tests' class path running {@code mainAndArguments} (JVM options first), started through
     * {@code prefix}; each line it prints goes to {@code onLine} and {@code output}.
     */
    private static Process java(List<String> prefix, String classPath, List<String> mainAndArguments,
                                Consumer<String> onLine, StringBuilder output) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(COMPILERS);
        command.addAll(JVM_ARGS);
        command.addAll(List.of("-cp", classPath));
        command.addAll(mainAndArguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> read(process, onLine, output));
        reader.setDaemon(true);
        reader.start();
        return process;
    }

    /** The tests' class path, its directories (the build's classes) copied into {@code readable}; jars stay. */
    private static String copiedClassPath(Path readable) throws IOException {
        List<String> entries = new ArrayList<>();
        int copies = 0;
        for (String entry : CLASS_PATH.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path copy = readable.resolve("classes-" + copies++);
                PathUtils.copyDirectory(path, copy);
                entries.add(copy.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** When its JVM started: whatever it started began later. */
    public Instant startedAt() {
        return process.toHandle().info().startInstant().orElseThrow();
    }

    /** What it printed so far. */
    public String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    private static void read(Process process, Consumer<String> onLine, StringBuilder output) {
        try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
                onLine.accept(line);
            }
        } catch (IOException e) {
            // the service ended
        }
    }

    /** Ends it with SIGKILL, as a crash or the OOM killer would: nothing of it runs after this returns. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
