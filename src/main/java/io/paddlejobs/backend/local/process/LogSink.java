package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.DirectoryHandle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a replica's output into its log file and keeps the file under a cap: when it grows past
 * the cap, the oldest half is dropped and the file starts with a marker line saying how many bytes
 * of earlier output are gone ({@link #MARKER}). A write that fails (a full disk) loses those bytes,
 * never the replica: the output is still drained, and a line in the log says what was lost.
 */
final class LogSink {

    private static final Logger log = LoggerFactory.getLogger(LogSink.class);
    /** The first line of a log that lost its beginning; readers use the count to resume where they were. */
    static final Pattern MARKER = Pattern.compile("\\[paddle-jobs: (\\d+) bytes of earlier output dropped[^\\n]*\\n");
    private static final int MARKER_PROBE = 200;
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE =
            PosixFilePermissions.asFileAttribute(DirectoryHandle.PRIVATE_FILE);

    private final Path file;
    private final long cap;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private long dropped;
    private long lost;

    private LogSink(Path file, long cap) {
        this.file = file;
        this.cap = Math.max(cap, 4096);
    }

    /** Starts copying {@code output} on a thread of its own; {@link #finished()} completes at its end. */
    static LogSink start(InputStream output, Path file, long cap, String name) {
        LogSink sink = new LogSink(file, cap);
        Thread thread = new Thread(() -> sink.copy(output), "log-" + name);
        thread.setDaemon(true);
        thread.start();
        return sink;
    }

    CompletableFuture<Void> finished() {
        return finished;
    }

    private void copy(InputStream output) {
        byte[] buffer = new byte[64 * 1024];
        FileChannel channel = null;
        try (output) {
            channel = open(true);
            int n;
            while ((n = output.read(buffer)) > 0) {
                channel = write(channel, buffer, n);
            }
        } catch (IOException e) {
            log.debug("output of {} ended: {}", file, e.toString());
        } finally {
            closeQuietly(channel);
            finished.complete(null);
        }
    }

    private FileChannel write(FileChannel channel, byte[] buffer, int n) {
        try {
            if (channel == null) {
                channel = open(false);
            }
            if (lost > 0) {
                channel.write(ByteBuffer.wrap(("\n[paddle-jobs: %d bytes of output could not be written (disk full?)]\n"
                        .formatted(lost)).getBytes(StandardCharsets.UTF_8)));
                lost = 0;
            }
            channel.write(ByteBuffer.wrap(buffer, 0, n));
            if (channel.size() > cap) {
                closeQuietly(channel);
                compact();
                channel = open(false);
            }
            return channel;
        } catch (IOException e) {
            lost += n;
            return channel;
        }
    }

    /** Keeps the newest half of the cap, from a line start where there is one, behind the marker. */
    private void compact() throws IOException {
        long size = Files.size(file);
        long keep = cap / 2;
        long from = size - keep;
        Path temp = file.resolveSibling(file.getFileName() + ".compact");
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.TRUNCATE_EXISTING), PRIVATE)) {
            ByteBuffer probe = ByteBuffer.allocate((int) Math.min(4096, keep));
            in.read(probe, from);
            for (int i = 0; i < probe.position(); i++) {
                if (probe.get(i) == '\n') {
                    from += i + 1;
                    break;
                }
            }
            long markerLength = markerLength(in);
            dropped += from - markerLength;
            out.write(ByteBuffer.wrap(marker(dropped)));
            in.transferTo(from, size - from, out);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private byte[] marker(long droppedBytes) {
        return ("[paddle-jobs: %d bytes of earlier output dropped; a replica's log keeps its newest %d KiB "
                + "(paddlejobs.local.max-log-size)]\n").formatted(droppedBytes, cap / 2048).getBytes(StandardCharsets.UTF_8);
    }

    /** Readable by the service alone: a log holds whatever the job printed, secrets included. */
    private FileChannel open(boolean fresh) throws IOException {
        FileChannel channel = FileChannel.open(file, fresh
                ? Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)
                : Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND), PRIVATE);
        if (fresh) {
            Files.setPosixFilePermissions(file, DirectoryHandle.PRIVATE_FILE); // one an earlier version made readable
        }
        return channel;
    }

    /** The length of the marker line this file starts with, or 0. */
    private static long markerLength(FileChannel in) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(MARKER_PROBE);
        in.read(head, 0);
        Matcher matcher = MARKER.matcher(new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1));
        return matcher.lookingAt() ? matcher.end() : 0;
    }

    /** Of a log file's head: how many bytes were dropped before it, and how long the marker line is. */
    record Head(long dropped, long markerLength) {

        static Head of(Path file) {
            try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteBuffer head = ByteBuffer.allocate(MARKER_PROBE);
                in.read(head, 0);
                Matcher matcher = MARKER.matcher(new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1));
                return matcher.lookingAt() ? new Head(Long.parseLong(matcher.group(1)), matcher.end()) : new Head(0, 0);
            } catch (IOException | NumberFormatException e) {
                return new Head(0, 0);
            }
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing more to lose
            }
        }
    }
}
