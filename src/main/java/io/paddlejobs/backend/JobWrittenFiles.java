package io.paddlejobs.backend;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Optional;

/**
 * Opens the files a job can write (its logs and marks where the job's directory is the job's to
 * change). A job can replace any of them by a link to a file only the service may read, by a FIFO
 * that blocks whoever opens it, or by a device that never ends; so a file is opened only if it is a
 * regular file reached without any link: the open neither follows a final link nor waits
 * ({@code O_NOFOLLOW | O_NONBLOCK}), the opened file must be a regular file and lie at exactly the
 * path asked for (no directory on the way was a link either), and every read of it has a bound the
 * caller sets. Where the native open is not available (not Linux), the checks are made on the path
 * just before a plain open without following links: a file swapped in that moment could still block.
 */
public final class JobWrittenFiles {

    private static final NativeOpen NATIVE = NativeOpen.load();

    private JobWrittenFiles() {
    }

    /**
     * @param file an absolute path without links (the caller's trusted root resolved to its real path)
     * @return the file open for reading, or empty when it is missing, a link, or not a regular file
     */
    public static Optional<FileChannel> open(Path file) throws IOException {
        Path path = file.toAbsolutePath().normalize();
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return Optional.empty();
        }
        if (!attributes.isRegularFile()) {
            return Optional.empty(); // nothing else is even opened: opening a device can act
        }
        return openChecked(path);
    }

    /** The open itself, and the checks on the opened file: what holds when the file was swapped after the check. */
    static Optional<FileChannel> openChecked(Path path) throws IOException {
        return NATIVE == null ? Optional.of(FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
                : NATIVE.open(path);
    }

    /**
     * Reads at most {@code maxBytes} of a file a job can write.
     *
     * @return its text (UTF-8) and whether that is all of it, or empty as {@link #open} is
     */
    public static Optional<Content> read(Path file, int maxBytes) throws IOException {
        Optional<FileChannel> opened = open(file);
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        try (FileChannel in = opened.get()) {
            ByteBuffer buffer = ByteBuffer.allocate(maxBytes + 1);
            while (buffer.hasRemaining() && in.read(buffer) > 0) {
                // until the bound or the end
            }
            boolean whole = buffer.position() <= maxBytes;
            String text = new String(buffer.array(), 0, Math.min(buffer.position(), maxBytes), StandardCharsets.UTF_8);
            Instant modified = Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toInstant();
            return Optional.of(new Content(text, whole, modified));
        }
    }

    /**
     * @param whole    false when the file held more than the bound (the text is its start)
     * @param modified when it was last written
     */
    public record Content(String text, boolean whole, Instant modified) {
    }

    /** {@code open(2)} of a file a job can write: no link followed, no wait for a FIFO's writer. */
    private static final class NativeOpen {

        private final Libc libc;
        private final int flags;

        private NativeOpen(Libc libc) {
            this.libc = libc;
            this.flags = Libc.READ_ONLY | Libc.NO_CTTY | Libc.NON_BLOCK | Libc.CLOSE_ON_EXEC | libc.noFollow;
        }

        static NativeOpen load() {
            return Libc.INSTANCE == null ? null : new NativeOpen(Libc.INSTANCE);
        }

        Optional<FileChannel> open(Path path) throws IOException {
            int fd;
            try {
                fd = libc.c.open(path.toString(), flags);
            } catch (LastErrorException e) {
                int errno = e.getErrorCode();
                if (errno == Libc.ENOENT || errno == Libc.ELOOP || errno == Libc.ENXIO || errno == Libc.ENOTDIR) {
                    return Optional.empty(); // gone, a link, a socket, a directory on the way replaced
                }
                throw new FileSystemException(path.toString(), null, "open failed: errno " + errno);
            }
            try {
                // The open file itself, whatever was swapped in at its path since the check above.
                Path handle = Path.of("/proc/self/fd", Integer.toString(fd));
                if (!Files.readAttributes(handle, BasicFileAttributes.class).isRegularFile()
                        || !Files.readSymbolicLink(handle).equals(path)) {
                    return Optional.empty();
                }
                // Opened again through the descriptor: the same regular file, where reads never block.
                return Optional.of(FileChannel.open(handle, StandardOpenOption.READ));
            } finally {
                libc.closeQuietly(fd);
            }
        }
    }
}
