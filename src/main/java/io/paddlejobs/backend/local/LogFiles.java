package io.paddlejobs.backend.local;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/** Reads replica log files: all of one, its last lines, or all of it and then what it writes until it ends. */
final class LogFiles {

    private static final long FOLLOW_POLL_MILLIS = 200;

    private LogFiles() {
    }

    /**
     * @param tail    only the last this many lines; {@code null} for all
     * @param running while true, keep waiting for more output (follow mode)
     */
    static void write(Path file, Integer tail, BooleanSupplier running, OutputStream out) throws IOException {
        long position = tail == null ? 0 : startOfLastLines(file, tail);
        byte[] buffer = new byte[8192];
        while (true) {
            boolean more = running.getAsBoolean();
            if (Files.exists(file)) {
                try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                    in.seek(position);
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        out.write(buffer, 0, n);
                        position += n;
                    }
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

    /** The offset where the last {@code lines} lines begin (a final newline ends a line, it does not start one). */
    static long startOfLastLines(Path file, int lines) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (lines == 0) {
                return length;
            }
            int newlines = 0;
            long position = length - 1;
            if (position >= 0) {
                in.seek(position);
                if (in.read() == '\n') {
                    position--;
                }
            }
            byte[] buffer = new byte[4096];
            while (position >= 0) {
                int chunk = (int) Math.min(buffer.length, position + 1);
                long chunkStart = position - chunk + 1;
                in.seek(chunkStart);
                in.readFully(buffer, 0, chunk);
                for (int i = chunk - 1; i >= 0; i--) {
                    if (buffer[i] == '\n' && ++newlines == lines) {
                        return chunkStart + i + 1;
                    }
                }
                position = chunkStart - 1;
            }
            return 0;
        }
    }
}
