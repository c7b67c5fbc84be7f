package io.paddlejobs.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One program of the control plane, run as a child process with its output in a log file
 * (read back into a failure message when the program dies or never gets ready).
 */
final class LocalProcess {

    private final String name;
    private final List<String> command;
    private final Path log;
    private Process process;

    private LocalProcess(String name, List<String> command, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
    }

    static LocalProcess start(String name, List<String> command, Path logDir) {
        LocalProcess started = new LocalProcess(name, command, logDir.resolve(name + ".log"));
        started.start();
        return started;
    }

    /** (Re)starts the same command; the log is appended to, so a restart keeps the earlier output. */
    void start() {
        try {
            // In the work directory: whatever a program writes beside itself goes there, never into the checkout.
            process = new ProcessBuilder(command).directory(log.getParent().toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.get(0) + ")", e);
        }
    }

    String name() {
        return name;
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** SIGTERM, and SIGKILL if it has not ended within a few seconds. */
    void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Resident memory in KiB, from /proc; 0 when it is not running. */
    long rssKiB() {
        if (!alive()) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /** The last lines of its output, for a failure message. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Says why the cluster is unusable when this program has ended. */
    void checkAlive() {
        if (!alive()) {
            throw new IllegalStateException(name + " ended (exit " + process.exitValue() + "); its last output:\n" + tail());
        }
    }
}
