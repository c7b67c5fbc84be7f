package io.paddlejobs.metrics;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * An output stream that hands each complete line written to it to a consumer. Lines that do not
 * start like a report are skipped without being decoded; a report longer than {@link #MAX_LINE}
 * is dropped (and said so), so that one endless line cannot fill the memory.
 */
final class LineSink extends OutputStream {

    static final int MAX_LINE = 64 * 1024;
    private static final byte[] MARKER = MetricLine.MARKER.getBytes(StandardCharsets.US_ASCII);

    private final Consumer<String> lines;
    private final Runnable overlong;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private int lineLength;
    private boolean skipping;

    /**
     * @param lines    gets every complete report line, without its line end
     * @param overlong told of each report line over the limit
     */
    LineSink(Consumer<String> lines, Runnable overlong) {
        this.lines = lines;
        this.overlong = overlong;
    }

    @Override
    public void write(int b) {
        if (b == '\n') {
            endLine();
            return;
        }
        if (skipping) {
            return;
        }
        if (lineLength < MARKER.length && b != MARKER[lineLength]) {
            skipping = true; // not a report: the rest of this line is not kept
            return;
        }
        if (lineLength == MAX_LINE) {
            skipping = true;
            overlong.run();
            return;
        }
        line.write(b);
        lineLength++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    /** A last line without a line end, once the replica has ended. */
    void finish() {
        if (lineLength > 0 && !skipping) {
            endLine();
        }
    }

    private void endLine() {
        if (!skipping && lineLength >= MARKER.length) {
            String text = line.toString(StandardCharsets.UTF_8);
            lines.accept(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
        }
        line.reset();
        lineLength = 0;
        skipping = false;
    }
}
