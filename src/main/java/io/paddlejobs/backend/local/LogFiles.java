package io.paddlejobs.backend.local;

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
 * it ends. A tail reads at most {@link #MAX_TAIL_BYTES}, whatever the file holds (a progress bar
 * that never writes a newline included); {@code \r} ends a line as {@code \n} does. A follower
 * keeps its place across the compaction of {@link LogSink}: where output was dropped under it,
 * it gets the marker line that says so.
 */
final class LogFiles {

    static final int MAX_TAIL_BYTES = 64 * 1024;
    private static final long FOLLOW_POLL_MILLIS = 100;

    private LogFiles() {
    }

    /**
     * @param tail    only the last this many lines; {@code null} for all
     * @param running while true, keep waiting for more output (follow mode)
     */
    static void write(Path file, Integer tail, BooleanSupplier running, OutputStream out) throws IOException {
        Object identity = identity(file);
        LogSink.Head head = LogSink.Head.of(file);
        long position = tail == null ? 0 : startOfLastLines(file, tail);
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

    /**
     * The offset where the last {@code lines} lines begin (a final line break ends a line, it does
     * not start one), looking back no further than {@link #MAX_TAIL_BYTES}: past that, where the
     * first line in that window begins, or the window's start when it holds no line break.
     */
    static long startOfLastLines(Path file, int lines) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (lines == 0 || length == 0) {
                return length;
            }
            int window = (int) Math.min(length, MAX_TAIL_BYTES);
            long windowStart = length - window;
            byte[] bytes = new byte[window];
            in.seek(windowStart);
            in.readFully(bytes);
            int end = window;
            if (bytes[end - 1] == '\n') {
                end--;
            }
            if (end > 0 && bytes[end - 1] == '\r') {
                end--;
            }
            int found = 0;
            int firstBreakEnd = -1;
            for (int i = end - 1; i >= 0; i--) {
                boolean lineBreak = bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 >= window || bytes[i + 1] != '\n'));
                if (lineBreak) {
                    firstBreakEnd = i + 1;
                    if (++found == lines) {
                        return windowStart + i + 1;
                    }
                }
            }
            if (windowStart == 0) {
                return 0;
            }
            return firstBreakEnd > 0 ? windowStart + firstBreakEnd : windowStart;
        }
    }
}
