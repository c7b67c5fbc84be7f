package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        // Most replicas leave nothing behind: look before paying for a kill process.
        if (!hasMembers(leaderPid) || !signalGroup(leaderPid, "TERM")) {
            return;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        ProcessHandle.of(leaderPid).ifPresent(leader -> awaitExit(leader, deadline));
        while (hasMembers(leaderPid) && System.nanoTime() < deadline) {
            pause();
        }
        if (hasMembers(leaderPid)) {
            signalGroup(leaderPid, "KILL");
            long killDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (hasMembers(leaderPid) && System.nanoTime() < killDeadline) {
                pause();
            }
        }
    }

    private static void awaitExit(ProcessHandle process, long deadline) {
        try {
            process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (Exception timedOutOrInterrupted) {
            // the group check below decides what happens next
        }
    }

    /** Whether any live (not zombie) process is still in the group. */
    private static boolean hasMembers(long pgid) {
        return ProcessHandle.allProcesses().anyMatch(p -> isLiveMemberOf(p.pid(), pgid));
    }

    /** From /proc/<pid>/stat: after the parenthesised command name come the state and, third, the group. */
    private static boolean isLiveMemberOf(long pid, long pgid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[2]) == pgid && !fields[0].equals("Z");
        } catch (IOException | RuntimeException e) {
            return false; // gone while we looked
        }
    }

    /** @return whether the group had a process to signal */
    private static boolean signalGroup(long pgid, String signal) {
        return run("kill", "-" + signal, "--", "-" + pgid) == 0;
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
                handle.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception timedOutOrInterrupted) {
                handle.destroyForcibly();
            }
        }
    }
}
