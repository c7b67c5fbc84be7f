package io.paddlejobs.history;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A log as the history keeps it: all of it up to a size, and beyond that its end, from the first
 * whole line, under a line that says how much was left out. Holds at most twice the size while it
 * is written.
 */
final class LogEnd extends OutputStream {

    private final int maxBytes;
    private final String setting;
    private ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long dropped;

    LogEnd(int maxBytes) {
        this(maxBytes, "paddlejobs.history.max-log-size");
    }

    /** @param setting the setting that bounds it, named in the note that says how much was left out */
    LogEnd(int maxBytes, String setting) {
        this.maxBytes = maxBytes;
        this.setting = setting;
    }

    @Override
    public void write(int b) {
        kept.write(b);
        trimWhenTwiceTheSize();
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        kept.write(bytes, offset, length);
        trimWhenTwiceTheSize();
    }

    private void trimWhenTwiceTheSize() {
        if (kept.size() > 2L * maxBytes || kept.size() > Integer.MAX_VALUE / 2) {
            byte[] all = kept.toByteArray();
            int cut = all.length - maxBytes;
            dropped += cut;
            kept = new ByteArrayOutputStream(Math.max(32, maxBytes));
            kept.write(all, cut, maxBytes);
        }
    }

    /** The log as kept: the whole of it, or a note and its end from the first line begun within the size. */
    String text() {
        byte[] all = kept.toByteArray();
        if (dropped == 0 && all.length <= maxBytes) {
            return new String(all, StandardCharsets.UTF_8);
        }
        int from = all.length - maxBytes;
        // From a line's start: never half a line, nor half a UTF-8 character.
        while (from < all.length && (from == 0 || all[from - 1] != '\n')) {
            from++;
        }
        long left = dropped + from;
        return "[paddle-jobs: the first " + left + " bytes of this log were not kept"
                + " (" + setting + ")]\n"
                + new String(Arrays.copyOfRange(all, from, all.length), StandardCharsets.UTF_8);
    }
}
