package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A local replica's processes as {@code /proc} shows them, from the process the service started (the root of the
 * replica's tree): where its entry point runs, for the status, and which of its processes are Python programs,
 * for a stack dump. Read when asked, never cached: what a replica runs changes as it goes.
 */
final class ReplicaProcessTree {

    private static final Path PROC = Path.of("/proc");
    /** A replica that runs more processes than this is looked at no further: a dump is for trainers, not fork bombs. */
    private static final int MAX_PROCESSES = 256;

    private ReplicaProcessTree() {
    }

    /**
     * A process, by its id on the host and inside the replica's PID namespace ({@code null} where it runs in none).
     */
    record Ids(long pid, Long namespacePid) {
    }

    /** A process of a replica that runs Python, and its command line, with its arguments joined by spaces. */
    record Program(Ids ids, String command) {
    }

    /**
     * The replica's entry point ({@code sh -c <entry_point>}). Started plainly it is the root itself (the gate,
     * {@code setsid} and {@code prlimit} exec it). In bubblewrap, the root is bubblewrap outside the namespace, its
     * only child bubblewrap's init (pid 1 inside), and that one's only child the entry point: empty until bubblewrap
     * has made them, or once they are gone.
     */
    static Optional<Ids> entryPoint(long root, boolean sandboxed) {
        if (!sandboxed) {
            return Files.isDirectory(PROC.resolve(Long.toString(root))) ? Optional.of(new Ids(root, null)) : Optional.empty();
        }
        List<Long> init = children(root);
        if (init.size() != 1) {
            return Optional.empty();
        }
        List<Long> entry = children(init.get(0));
        return entry.size() != 1 ? Optional.empty() : Optional.of(new Ids(entry.get(0), namespacePid(entry.get(0))));
    }

    /** The root and every process below it whose program is a Python interpreter ({@code python}, {@code python3.11}). */
    static List<Program> pythonPrograms(long root) {
        List<Program> programs = new ArrayList<>();
        Deque<Long> toVisit = new ArrayDeque<>(List.of(root));
        int seen = 0;
        while (!toVisit.isEmpty() && seen++ < MAX_PROCESSES) {
            long pid = toVisit.removeFirst();
            if (runsPython(pid)) {
                programs.add(new Program(new Ids(pid, namespacePid(pid)), commandLine(pid)));
            }
            toVisit.addAll(children(pid));
        }
        return programs;
    }

    /** Its children, from {@code /proc/<pid>/task/<pid>/children}: none where it is gone. */
    static List<Long> children(long pid) {
        String id = Long.toString(pid);
        try {
            String listed = Files.readString(PROC.resolve(id).resolve("task").resolve(id).resolve("children"));
            return listed.isBlank() ? List.of() : Arrays.stream(listed.trim().split("\\s+")).map(Long::valueOf).toList();
        } catch (IOException | NumberFormatException gone) {
            return List.of();
        }
    }

    /**
     * Its id in the innermost PID namespace it is in, where that is not the service's own ({@code NSpid} lists one
     * id per namespace, outermost first; the service's own namespace is compared by its own entry).
     */
    static Long namespacePid(long pid) {
        List<Long> ids = nsPids(Long.toString(pid));
        int ownDepth = nsPids("self").size();
        return ids.size() > ownDepth && ownDepth > 0 ? ids.get(ids.size() - 1) : null;
    }

    private static List<Long> nsPids(String pid) {
        try {
            for (String line : Files.readAllLines(PROC.resolve(pid).resolve("status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("NSpid:")) {
                    return Arrays.stream(line.substring("NSpid:".length()).trim().split("\\s+"))
                            .map(Long::valueOf).toList();
                }
            }
        } catch (IOException | NumberFormatException gone) {
            // gone, or a kernel without NSpid (before 4.1): no namespace id to show
        }
        return List.of();
    }

    private static boolean runsPython(long pid) {
        try {
            Path program = Files.readSymbolicLink(PROC.resolve(Long.toString(pid)).resolve("exe")).getFileName();
            return program != null && program.toString().startsWith("python");
        } catch (IOException | UnsupportedOperationException gone) {
            return false;
        }
    }

    private static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException gone) {
            return "";
        }
    }
}
