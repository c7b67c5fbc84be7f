package io.paddlejobs.backend;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Hides a job's secret values in what its replicas wrote, where the service serves or keeps it (a log,
 * a history row): each occurrence becomes {@value #HIDDEN}. A value of several lines is hidden line by
 * line, so that a log read line by line hides it too. Works on bytes: a log need not be UTF-8.
 */
public final class SecretMask {

    public static final String HIDDEN = "[secret]";
    public static final SecretMask NONE = new SecretMask(List.of());
    private static final byte[] HIDDEN_BYTES = HIDDEN.getBytes(StandardCharsets.UTF_8);

    /** Longest first, so that a value that contains another is hidden whole. */
    private final List<byte[]> secrets;

    private SecretMask(List<byte[]> secrets) {
        this.secrets = secrets;
    }

    public static SecretMask of(Collection<String> values) {
        List<byte[]> lines = values.stream().flatMap(value -> value.lines())
                .filter(line -> !line.isEmpty()).distinct()
                .map(line -> line.getBytes(StandardCharsets.UTF_8))
                .sorted(Comparator.comparingInt((byte[] b) -> b.length).reversed()).toList();
        return lines.isEmpty() ? NONE : new SecretMask(lines);
    }

    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    public String apply(String text) {
        if (secrets.isEmpty() || text == null) {
            return text;
        }
        return new String(hide(text.getBytes(StandardCharsets.UTF_8), 0), StandardCharsets.UTF_8);
    }

    /**
     * {@code out} with every value hidden. Bytes that could be the start of a value wait for the next
     * write, or for {@link Masked#finish}; the rest goes on at once, so a follow shows a line as soon as
     * it is safe to.
     */
    public Masked wrap(OutputStream out) {
        return new Masked(out);
    }

    private byte[] hide(byte[] text, int from) {
        ByteArrayOutputStream hidden = new ByteArrayOutputStream(text.length);
        int i = from;
        outer:
        while (i < text.length) {
            for (byte[] secret : secrets) {
                if (startsAt(text, i, secret)) {
                    hidden.writeBytes(HIDDEN_BYTES);
                    i += secret.length;
                    continue outer;
                }
            }
            hidden.write(text[i++]);
        }
        return hidden.toByteArray();
    }

    private static boolean startsAt(byte[] text, int at, byte[] secret) {
        return text.length - at >= secret.length && Arrays.equals(text, at, at + secret.length, secret, 0, secret.length);
    }

    /** Where the unfinished tail begins: the first position from which the rest is a proper prefix of a value. */
    private int safeEnd(byte[] text) {
        for (int at = 0; at < text.length; at++) {
            for (byte[] secret : secrets) {
                int rest = text.length - at;
                if (rest < secret.length && Arrays.equals(text, at, text.length, secret, 0, rest)) {
                    return at;
                }
            }
        }
        return text.length;
    }

    /** A stream that hides the values; {@link #finish} writes what it held back, without closing what it wraps. */
    public final class Masked extends FilterOutputStream {

        private byte[] pending = new byte[0];

        private Masked(OutputStream out) {
            super(Objects.requireNonNull(out));
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (secrets.isEmpty()) {
                out.write(b, off, len);
                return;
            }
            byte[] text = Arrays.copyOf(pending, pending.length + len);
            System.arraycopy(b, off, text, pending.length, len);
            // Whole values first, then hold back what could still become one.
            byte[] hidden = hide(text, 0);
            int end = safeEnd(hidden);
            out.write(hidden, 0, end);
            pending = Arrays.copyOfRange(hidden, end, hidden.length);
        }

        /** The end of what is written: what was held back could start a value no longer, and goes out as it is. */
        public void finish() throws IOException {
            out.write(pending);
            pending = new byte[0];
            out.flush();
        }

        @Override
        public void close() throws IOException {
            finish();
            super.close();
        }
    }
}
