package io.paddlejobs.backend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a log's last lines begin, for every backend that keeps logs in files. It reads at most
 * {@link #MAX_TAIL_BYTES} from the end, whatever the file holds (a progress bar that never writes
 * a newline included), so {@code tail=N} costs the same on a small log and a huge one;
 * {@code \r} ends a line as {@code \n} does.
 */
public final class LastLines {

    public static final int MAX_TAIL_BYTES = 64 * 1024;

    private LastLines() {
    }

    /**
     * As {@link #start(FileChannel, int)}, for a file given by its path: opened as a file a job can
     * write ({@link JobWrittenFiles}), so a link or anything but a regular file has no lines.
     */
    public static long start(Path file, int lines) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(parent)) {
            return 0;
        }
        Optional<FileChannel> opened = JobWrittenFiles.open(parent.toRealPath().resolve(file.getFileName()));
        if (opened.isEmpty()) {
            return 0;
        }
        try (FileChannel in = opened.get()) {
            return start(in, lines);
        }
    }

    /**
     * The offset where the last {@code lines} lines begin (a final line break ends a line, it does
     * not start one), looking back no further than {@link #MAX_TAIL_BYTES}: past that, where the
     * first line in that window begins, or the window's start when it holds no line break.
     */
    public static long start(FileChannel in, int lines) throws IOException {
        long length = in.size();
        if (lines == 0 || length == 0) {
            return length;
        }
        int window = (int) Math.min(length, MAX_TAIL_BYTES);
        long windowStart = length - window;
        ByteBuffer buffer = ByteBuffer.allocate(window);
        while (buffer.hasRemaining() && in.read(buffer, windowStart + buffer.position()) > 0) {
            // until the window is full (or the file was cut meanwhile)
        }
        byte[] bytes = buffer.array();
        window = buffer.position();
        if (window == 0) {
            return windowStart;
        }
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
