package io.paddlejobs.backend;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

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
     * The offset where the last {@code lines} lines begin (a final line break ends a line, it does
     * not start one), looking back no further than {@link #MAX_TAIL_BYTES}: past that, where the
     * first line in that window begins, or the window's start when it holds no line break.
     */
    public static long start(Path file, int lines) throws IOException {
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
