package io.paddlejobs.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine's root, as bubblewrap arguments that show a sandbox every top-level folder (and link)
 * of it, each bound in place, on a root of its own. Unlike binding {@code /} whole, a path that
 * exists only inside (a fixed certificate folder a program insists on) is then made in the
 * sandbox's root, never on the machine.
 */
final class SandboxRoot {

    private SandboxRoot() {
    }

    static List<String> hostEntries() {
        List<String> args = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/"))) {
            for (Path entry : entries.sorted().toList()) {
                if (Files.isSymbolicLink(entry)) {
                    args.addAll(List.of("--symlink", Files.readSymbolicLink(entry).toString(), entry.toString()));
                } else if (Files.isDirectory(entry)) {
                    args.addAll(List.of("--dev-bind", entry.toString(), entry.toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the machine's root", e);
        }
        return args;
    }
}
