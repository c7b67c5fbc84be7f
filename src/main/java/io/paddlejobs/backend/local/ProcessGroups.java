package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Stops a replica together with every process it started. Where {@code setsid} exists each
 * replica leads its own process group, and the whole group is signalled: that reaches the
 * user's program even when the shell that started it is already gone. Elsewhere (macOS) the
 * process tree as the JVM sees it is stopped instead.
 */
final class ProcessGroups {

    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final long POLL_MILLIS = 20;

    private ProcessGroups() {
    }

    /** The command that starts {@code sh -c entryPoint}, as a group leader where possible. */
    static List<String> command(String entryPoint) {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            command.add(SETSID.toString());
        }
        command.addAll(List.of("sh", "-c", entryPoint));
        return command;
    }

    /** SIGTERM, then SIGKILL after the grace period; returns once nothing of the replica runs. */
    static void stop(long leaderPid, Duration grace) {
        if (!Files.isExecutable(SETSID)) {
            ProcessHandle.of(leaderPid).ifPresent(handle -> stopTree(handle, grace));
            return;
        }
        signalGroup(leaderPid, "TERM");
        long deadline = System.nanoTime() + grace.toNanos();
        while (groupAlive(leaderPid) && System.nanoTime() < deadline) {
            pause();
        }
        if (groupAlive(leaderPid)) {
            signalGroup(leaderPid, "KILL");
            long killDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (groupAlive(leaderPid) && System.nanoTime() < killDeadline) {
                pause();
            }
        }
    }

    private static boolean groupAlive(long pgid) {
        // A zombie leader still counts for kill -0, so look at the leader's own state too.
        boolean leaderRunning = ProcessHandle.of(pgid).map(ProcessHandle::isAlive).orElse(false);
        return run("kill", "-0", "--", "-" + pgid) == 0 && (leaderRunning || hasOtherMembers(pgid));
    }

    private static boolean hasOtherMembers(long pgid) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.pid() != pgid && groupOf(p.pid()) == pgid);
    }

    /** The process group id, from /proc/<pid>/stat (field 5, after the parenthesised command name). */
    private static long groupOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[2]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void signalGroup(long pgid, String signal) {
        run("kill", "-" + signal, "--", "-" + pgid);
    }

    private static int run(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void stopTree(ProcessHandle root, Duration grace) {
        List<ProcessHandle> tree = new ArrayList<>(root.descendants().toList());
        tree.add(root);
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (Exception timedOutOrInterrupted) {
                handle.destroyForcibly();
            }
        }
    }
}
