package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.LastLines;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Reads a replica's log file on the shared filesystem: all of it, its last lines ({@link LastLines}), or all of it
 * and then what the replica writes until it ends (the file grows on another node; it is read
 * again every {@value #FOLLOW_POLL_MILLIS} ms).
 */
final class LogTail {

    private static final long FOLLOW_POLL_MILLIS = 200;

    private LogTail() {
    }

    /**
     * @param tail    only the last this many lines; {@code null} for all
     * @param running while true, keep waiting for more output (follow mode)
     */
    static void write(Path file, Integer tail, BooleanSupplier running, OutputStream out) throws IOException {
        long position = tail == null ? 0 : LastLines.start(file, tail);
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
}
