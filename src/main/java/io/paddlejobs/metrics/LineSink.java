package io.paddlejobs.metrics;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * An output stream that hands on every report written to it, wherever it stands on its line: a report
 * runs from the marker word to the end of the line, to a carriage return, or to the next marker. A
 * progress bar (hapi's {@code ProgBarLogger}) rewrites its line with {@code \r} and no newline, so a report
 * printed while it shows lands after the bar, mid-line; and the bar's next {@code \r} ends the report.
 * Text without the marker is skipped without being decoded; a report longer than {@link #MAX_LINE} is
 * dropped (and said so), so that one endless line cannot fill the memory.
 */
final class LineSink extends OutputStream {

    static final int MAX_LINE = 64 * 1024;
    private static final byte[] WORD = MetricLine.WORD.getBytes(StandardCharsets.US_ASCII);

    private final Consumer<String> reports;
    private final Runnable overlong;
    private final ByteArrayOutputStream report = new ByteArrayOutputStream();
    /** How much of the marker word the latest bytes spell. */
    private int matched;
    private boolean inReport;
    private boolean skipping;

    /**
     * @param reports  gets every report, from its marker word on, without what ended it
     * @param overlong told of each report over the limit
     */
    LineSink(Consumer<String> reports, Runnable overlong) {
        this.reports = reports;
        this.overlong = overlong;
    }

    @Override
    public void write(int b) {
        if (b == '\n' || b == '\r') {
            endReport();
            matched = 0;
            return;
        }
        // The word's first letter occurs in it only once, so a mismatch can only restart the match there.
        matched = b == WORD[matched] ? matched + 1 : b == WORD[0] ? 1 : 0;
        boolean wordEnds = matched == WORD.length;
        if (wordEnds) {
            matched = 0;
            if (inReport) {
                report.write(b);
                endReport(report.size() - WORD.length); // the report before this marker ends here
            }
            inReport = true;
            skipping = false;
            report.reset();
            report.write(WORD, 0, WORD.length);
            return;
        }
        if (!inReport || skipping) {
            return;
        }
        if (report.size() == MAX_LINE) {
            skipping = true;
            overlong.run();
            return;
        }
        report.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    /** A last report without a line end, once the replica has ended. */
    void finish() {
        endReport();
    }

    private void endReport() {
        endReport(report.size());
    }

    private void endReport(int length) {
        if (inReport && !skipping) {
            reports.accept(new String(report.toByteArray(), 0, length, StandardCharsets.UTF_8));
        }
        inReport = false;
        skipping = false;
        report.reset();
    }
}
