package io.paddlejobs.backend;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Deletes a tree below a {@link DirectoryHandle}, children first, each step relative to the
 * directory it is in and nothing followed. A job can make its tree as deep as it likes; each level
 * below holds a directory open, so past {@link #MAX_HELD} levels the rest of a branch is moved up,
 * in one rename, into the directory the delete began in, and deleted from there.
 */
final class TreeDeletion {

    /** How deep a delete holds directories open. */
    private static final int MAX_HELD = 32;

    private final DirectoryHandle top;
    private final Deque<String> left = new ArrayDeque<>();

    private TreeDeletion(DirectoryHandle top) {
        this.top = top;
    }

    /** @throws IOException when something could not be deleted (the rest was), for the first of them */
    static void delete(DirectoryHandle top, String name) throws IOException {
        TreeDeletion deletion = new TreeDeletion(top);
        deletion.left.push(name);
        IOException failed = null;
        while (!deletion.left.isEmpty()) {
            try {
                deletion.below(top, deletion.left.pop(), 0);
            } catch (IOException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Deletes {@code name} in {@code dir}, {@code depth} levels below the top. */
    private void below(DirectoryHandle dir, String name, int depth) throws IOException {
        Optional<PosixFileAttributes> found = dir.attributes(name);
        if (found.isEmpty()) {
            return;
        }
        if (found.get().isDirectory()) {
            if (depth >= MAX_HELD) {
                String moved = ".deleting-" + UUID.randomUUID();
                Files.move(dir.at(name), top.at(moved), StandardCopyOption.ATOMIC_MOVE);
                left.push(moved);
                return;
            }
            try (DirectoryHandle child = dir.directory(name)) {
                List<String> entries = child.names();
                for (String entry : entries) {
                    below(child, entry, depth + 1);
                }
            } catch (NoSuchFileException gone) {
                return;
            }
        }
        try {
            Files.deleteIfExists(dir.at(name));
        } catch (FileSystemException e) {
            throw dir.relabelled(e, name);
        }
    }
}
