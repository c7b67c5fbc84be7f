package io.paddlejobs.image;

import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The prepared image run as a container of its own: buildah's working container of the image, its
 * entry point run in chroot isolation as the image's user, on the host network (the service on a
 * free port of 127.0.0.1), with no cgroup of its own. (podman's runtime, crun, refuses to start any
 * container on a machine whose cgroups are mounted in hybrid mode with controllers on cgroup v2, as
 * on the test machine: the chroot isolation needs no runtime.) Its output is this process's; closing
 * it sends the service SIGTERM, as Kubernetes does, and removes the container.
 */
final class ImageContainer implements AutoCloseable {

    /** Generous: under a loaded machine the first start of a JVM in a fresh container is slow. */
    static final Duration READY_DEADLINE = Duration.ofMinutes(3);

    /** Linux's USER_HZ, the unit of /proc/PID/stat's times, on every architecture it runs on here. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String name;
    private final Process process;
    private final StringBuilder output = new StringBuilder();
    private final int port;
    private Start startCost;

    private ImageContainer(String name, Process process, int port) {
        this.name = name;
        this.process = process;
        this.port = port;
        Thread reader = new Thread(this::read, name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The image as it is: its entry point, with {@code options} for {@code buildah run} (--env, --volume, --mount). */
    static ImageContainer start(List<String> options, List<String> arguments) {
        JsonNode entrypoint = JSON.readTree(PreparedImage.podmanOk("image", "inspect", "--format",
                "{{json .Config.Entrypoint}}", PreparedImage.NAME));
        List<String> command = new ArrayList<>();
        entrypoint.forEach(part -> command.add(part.asString()));
        return run(options, command, arguments);
    }

    /**
     * Runs {@code command} in a new container of the image, with {@code buildah run}'s
     * {@code options} and the service's {@code arguments}, and waits until it is ready.
     */
    static ImageContainer run(List<String> options, List<String> command, List<String> arguments) {
        Path dir = PreparedImage.dir();
        int port = freePort();
        String name = "paddle-jobs-test-" + ProcessHandle.current().pid() + "-" + COUNT.incrementAndGet();
        long begin = System.nanoTime();
        PreparedImage.buildahOk("from", "--pull=never", "--quiet", "--name", name, PreparedImage.NAME);
        List<String> run = new ArrayList<>(List.of("buildah", "run", "--isolation=chroot", "--network=host"));
        run.addAll(options);
        run.addAll(List.of(name, "--"));
        run.addAll(command);
        run.addAll(arguments);
        run.addAll(List.of("--server.port=" + port, "--server.address=127.0.0.1"));
        ProcessBuilder builder = new ProcessBuilder(run).redirectErrorStream(true);
        PreparedImage.configure(builder, dir);
        ImageContainer container;
        try {
            container = new ImageContainer(name, builder.start(), port);
        } catch (IOException e) {
            PreparedImage.buildah("rm", name);
            throw new UncheckedIOException(e);
        }
        try {
            container.awaitReady();
        } catch (RuntimeException e) {
            container.close();
            throw new IllegalStateException("the container did not become ready:\n" + container.output(), e);
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - begin);
        container.startCost = new Start(wall, container.cpuTime());
        return container;
    }

    private void awaitReady() {
        ServiceClient client = client();
        await().atMost(READY_DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the container exited " + process.exitValue());
            }
            try {
                return client.get("/actuator/health/readiness").statusCode() == 200;
            } catch (UncheckedIOException notListeningYet) {
                return false;
            }
        });
    }

    ServiceClient client() {
        return new ServiceClient(port);
    }

    /**
     * What the start cost: the wall time from making the container until the readiness probe answered
     * 200, and the CPU time the service's JVM (all its threads) had used by then, which on a shared
     * machine varies much less than the wall time.
     */
    record Start(Duration wall, Duration cpu) {
    }

    Start startCost() {
        return startCost;
    }

    private Duration cpuTime() {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(hostPid()), "stat"));
            // Fields after the command (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return Duration.ofMillis(ticks * 1000 / CLOCK_TICKS_PER_SECOND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The service's JVM, a process of the host (chroot isolation has no process namespace). */
    long hostPid() {
        return process.descendants().filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst().orElseThrow(() -> new IllegalStateException("no JVM in " + name)).pid();
    }

    /** A command run inside the container, as the image's user; its output. */
    String exec(String... command) {
        List<String> arguments = new ArrayList<>(List.of("run", "--isolation=chroot", name, "--"));
        arguments.addAll(List.of(command));
        return PreparedImage.buildahOk(arguments.toArray(String[]::new));
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    private void read() {
        try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // the container ended
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            process.descendants().filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                    .forEach(ProcessHandle::destroy);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            PreparedImage.buildah("rm", name);
        }
    }
}
