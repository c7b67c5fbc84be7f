package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.local.sandbox.Sandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The programs a {@link Sandbox} is made with, found once on the service's PATH (never a job's), and who runs them. */
public final class HostPrograms {

    private static final Logger log = LoggerFactory.getLogger(HostPrograms.class);

    private HostPrograms() {
    }

    /** The program's absolute path, or null when it is not installed. */
    public static Path find(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        return Stream.of(path.split(":")).filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable).findFirst().map(Sandbox::absolute).orElse(null);
    }

    /** Whether this process runs as root: {@code /proc/self} belongs to the effective user. */
    public static boolean runningAsRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether the command exits with 0 within a few seconds; what it said otherwise is logged. */
    public static boolean succeeds(List<String> command) {
        try {
            Process probe = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(probe.getInputStream().readAllBytes());
            if (!probe.waitFor(10, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                return false;
            }
            if (probe.exitValue() != 0) {
                log.info("bubblewrap cannot sandbox replicas here ({}): {}", String.join(" ", command), output.strip());
            }
            return probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
