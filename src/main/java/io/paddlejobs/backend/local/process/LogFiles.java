package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.LastLines;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Reads replica log files: all of one, its last lines, or all of it and then what it writes until
 * it ends. A tail reads at most {@link LastLines#MAX_TAIL_BYTES} ({@link LastLines}). A follower
 * keeps its place across the compaction of {@link LogSink}: where output was dropped under it,
 * it gets the marker line that says so.
 */
public final class LogFiles {

    private static final long FOLLOW_POLL_MILLIS = 100;

    private LogFiles() {
    }

    /**
     * @param tail    only the last this many lines; {@code null} for all
     * @param running while true, keep waiting for more output (follow mode)
     */
    public static void write(Path file, Integer tail, BooleanSupplier running, OutputStream out) throws IOException {
        Object identity = identity(file);
        LogSink.Head head = LogSink.Head.of(file);
        long position = tail == null ? 0 : LastLines.start(file, tail);
        byte[] buffer = new byte[64 * 1024];
        while (true) {
            boolean more = running.getAsBoolean();
            Object now = identity(file);
            if (now != null && !Objects.equals(now, identity)) {
                // Compacted (or written anew) since the last read: find our place in the new file.
                LogSink.Head newHead = LogSink.Head.of(file);
                long consumed = head.dropped() + Math.max(0, position - head.markerLength());
                position = consumed >= newHead.dropped()
                        ? newHead.markerLength() + consumed - newHead.dropped()
                        : 0; // output we had not read yet was dropped: the marker line says so
                identity = now;
                head = newHead;
            }
            if (now != null) {
                try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                    in.seek(Math.min(position, in.length()));
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        out.write(buffer, 0, n);
                        position += n;
                    }
                } catch (java.nio.file.NoSuchFileException | java.io.FileNotFoundException replacedMeanwhile) {
                    // read again at the next poll
                }
            }
            out.flush();
            // Checked before the last read, so output written just before the end is not lost.
            if (!more) {
                return;
            }
            try {
                Thread.sleep(FOLLOW_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Object identity(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.fileKey() != null ? attributes.fileKey() : attributes.creationTime();
        } catch (IOException e) {
            return null;
        }
    }
}
