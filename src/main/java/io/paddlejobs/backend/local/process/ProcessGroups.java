package io.paddlejobs.backend.local.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Stops replicas together with every process they started. Where {@code setsid} exists each
 * replica leads its own process group, and the whole group is signalled: that reaches the
 * user's program even when the shell that started it is already gone. Many replicas are stopped
 * side by side: one SIGTERM to each group, one shared grace period, then one SIGKILL to each group
 * still there. Elsewhere (macOS) the process tree as the JVM sees it is stopped instead.
 */
final class ProcessGroups {

    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path PROC = Path.of("/proc");
    private static final long POLL_MILLIS = 20;
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private ProcessGroups() {
    }

    /** SIGTERM to every group, SIGKILL to those left after the grace period; returns once nothing of them runs. */
    static void stopAll(Collection<Long> leaderPids, Duration grace) {
        if (!Files.isExecutable(SETSID)) {
            leaderPids.parallelStream().forEach(pid -> ProcessHandle.of(pid).ifPresent(handle -> stopTree(handle, grace)));
            return;
        }
        // Most replicas leave nothing behind: look before paying for a kill process.
        Set<Long> left = liveGroups(leaderPids);
        if (left.isEmpty()) {
            return;
        }
        signal(left, "TERM");
        left = awaitGone(left, grace, "TERM");
        if (!left.isEmpty()) {
            signal(left, "KILL");
            awaitGone(left, KILL_WAIT, "KILL");
        }
    }

    /** Waits for the groups to go; signals again, once, those still there after a moment (a late {@code setsid}). */
    private static Set<Long> awaitGone(Set<Long> groups, Duration within, String signal) {
        long deadline = System.nanoTime() + within.toNanos();
        long again = System.nanoTime() + Duration.ofMillis(200).toNanos();
        Set<Long> left = liveGroups(groups);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            pause();
            left = liveGroups(left);
            if (again != 0 && System.nanoTime() > again && !left.isEmpty()) {
                signal(left, signal);
                again = 0;
            }
        }
        return left;
    }

    /**
     * Those of the groups with a live (not zombie) process, from one pass over /proc. A leader that
     * lives counts even outside its group: a replica stopped just after it was spawned may not have
     * called {@code setsid} yet.
     */
    private static Set<Long> liveGroups(Collection<Long> groups) {
        Set<Long> wanted = new HashSet<>(groups);
        Set<Long> live = new HashSet<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, path -> isPid(path.getFileName().toString()))) {
            for (Path process : processes) {
                long group = liveGroupOf(process);
                if (wanted.contains(group)) {
                    live.add(group);
                } else if (group != -1 && wanted.contains(Long.parseLong(process.getFileName().toString()))) {
                    live.add(Long.parseLong(process.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            return wanted; // cannot tell: assume they live, the deadline ends the wait
        }
        return live;
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /** From /proc/<pid>/stat: after the parenthesised command name come the state and, third, the group; -1 for a zombie. */
    private static long liveGroupOf(Path process) {
        try {
            String stat = Files.readString(process.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return fields[0].equals("Z") ? -1 : Long.parseLong(fields[2]);
        } catch (IOException | RuntimeException e) {
            return -1; // gone while we looked
        }
    }

    /** One kill process for all the groups, and their leaders (which may not lead their group yet). */
    private static void signal(Collection<Long> groups, String signal) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, "--"));
        groups.forEach(group -> {
            command.add("-" + group);
            command.add(Long.toString(group));
        });
        try {
            new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException e) {
            // the groups are checked again, and killed after the grace period
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
