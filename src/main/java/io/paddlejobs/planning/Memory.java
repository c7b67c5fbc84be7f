package io.paddlejobs.planning;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of memory in bytes, read and written in Kubernetes quantity syntax
 * ({@code 512Mi}, {@code 1Gi}, {@code 1G}, {@code 1500M}, {@code 1e9}, or plain bytes).
 */
public record Memory(long bytes) implements Comparable<Memory> {

    private static final Pattern SYNTAX =
            Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P|[eE][0-9]+)?");
    private static final long KI = 1024L;
    private static final long MI = KI * 1024;
    private static final long GI = MI * 1024;
    private static final long TI = GI * 1024;
    private static final long PI = TI * 1024;

    /** Largest suffix first, so that 1Gi prints as 1Gi rather than 1024Mi. */
    private static final String[] SUFFIXES = {"Pi", "Ti", "Gi", "Mi", "Ki", "P", "T", "G", "M", "k"};
    private static final long[] FACTORS =
            {PI, TI, GI, MI, KI, 1_000_000_000_000_000L, 1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};

    public Memory {
        if (bytes < 0) {
            throw new IllegalArgumentException("memory cannot be negative");
        }
    }

    public static Memory ofMebibytes(long mebibytes) {
        return new Memory(mebibytes * MI);
    }

    /** Whether {@code text} is a quantity this type accepts; see {@link #parse}. */
    public static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Parses Kubernetes quantity syntax. Fractions are allowed when they come to whole bytes
     * ({@code 1.5Gi}); anything else is an {@link IllegalArgumentException} saying why.
     */
    public static Memory parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("memory is missing");
        }
        Matcher m = SYNTAX.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a memory quantity; use a number with an optional suffix such as 512Mi, 2Gi or 1G");
        }
        BigDecimal number = new BigDecimal(m.group(1));
        try {
            // An exponent moves the decimal point rather than computing 10^n: 1e999999999 must fail fast.
            BigDecimal bytes = m.group(2) != null && m.group(2).matches("[eE][0-9]+")
                    ? number.scaleByPowerOfTen(Integer.parseInt(m.group(2).substring(1)))
                    : number.multiply(BigDecimal.valueOf(factorOf(m.group(2))));
            return new Memory(bytes.longValueExact());
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes or is too large");
        }
    }

    private static long factorOf(String suffix) {
        if (suffix == null) {
            return 1;
        }
        if (suffix.equals("K")) {
            return 1_000L;
        }
        for (int i = 0; i < SUFFIXES.length; i++) {
            if (SUFFIXES[i].equals(suffix)) {
                return FACTORS[i];
            }
        }
        return 1; // exponent forms are handled by the caller
    }

    public Memory times(int n) {
        return new Memory(Math.multiplyExact(bytes, n));
    }

    public Memory plus(Memory other) {
        return new Memory(Math.addExact(bytes, other.bytes));
    }

    /**
     * This amount split {@code parts} ways. An uneven split is rounded down to whole mebibytes
     * so that the value stays readable (1Gi / 3 = 341Mi, not 357913941).
     */
    public Memory dividedBy(int parts) {
        if (bytes % parts == 0) {
            return new Memory(bytes / parts);
        }
        return new Memory(bytes / parts / MI * MI);
    }

    @Override
    public int compareTo(Memory other) {
        return Long.compare(bytes, other.bytes);
    }

    /** The shortest exact Kubernetes quantity: {@code 1Gi}, {@code 500M}, or plain bytes. */
    @Override
    public String toString() {
        if (bytes == 0) {
            return "0";
        }
        // Binary suffixes are tried first, but 2G must not come out as 1953125Ki: keep the shortest.
        String shortest = Long.toString(bytes);
        for (int i = 0; i < SUFFIXES.length; i++) {
            if (bytes % FACTORS[i] == 0) {
                String text = bytes / FACTORS[i] + SUFFIXES[i];
                if (text.length() < shortest.length()) {
                    shortest = text;
                }
            }
        }
        return shortest;
    }
}
