package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.backend.JobWrittenFiles;
import io.paddlejobs.backend.LastLines;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Reads a replica's log file on the shared filesystem: all of it, its last lines ({@link LastLines}), or all of it
 * and then what the replica writes until it ends (the file grows on another node; it is read
 * again every {@value #FOLLOW_POLL_MILLIS} ms). The replica writes the file itself, so it is opened
 * as {@link JobWrittenFiles} opens one (a link or a FIFO in its place reads as no log yet), and one
 * read serves at most {@code maxBytes} (a sparse file of a terabyte costs no more than that).
 */
public final class LogTail {

    private static final long FOLLOW_POLL_MILLIS = 200;

    private LogTail() {
    }

    /**
     * @param tail     only the last this many lines; {@code null} for all
     * @param maxBytes the most this read writes to {@code out}
     * @param running  while true, keep waiting for more output (follow mode)
     */
    public static void write(Path file, Integer tail, long maxBytes, BooleanSupplier running, OutputStream out)
            throws IOException {
        long position = -1; // where the next byte comes from, once the file was there
        long sent = 0;
        byte[] bytes = new byte[8192];
        while (true) {
            boolean more = running.getAsBoolean();
            Optional<FileChannel> opened = JobWrittenFiles.open(file);
            if (opened.isPresent()) {
                try (FileChannel in = opened.get()) {
                    if (position < 0) {
                        position = tail == null ? 0 : LastLines.start(in, tail);
                    }
                    int n;
                    while (sent < maxBytes
                            && (n = in.read(ByteBuffer.wrap(bytes, 0, (int) Math.min(bytes.length, maxBytes - sent)),
                            position)) > 0) {
                        out.write(bytes, 0, n);
                        position += n;
                        sent += n;
                    }
                }
            }
            out.flush();
            // Checked before the last read, so output written just before the end is not lost.
            if (!more || sent >= maxBytes) {
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
