package io.paddlejobs.packages;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterInputStream;

/**
 * The tar header bombs of the second red-team report (its appendix, {@code mkbomb.py}), built the
 * same way byte for byte, as gzipped streams generated while they are read: a reader that refuses
 * a bomb at its first header costs the test almost nothing, one that reads it through would need
 * the whole of it (hundreds of MiB) and blow.
 */
public final class Bombs {

    private Bombs() {
    }

    /** One global PAX header with {@code keys} distinct 116-byte records. */
    public static InputStream paxKeys(int keys) {
        long size = 116L * keys;
        return gzipped(concat(List.of(header("PaxHeader", size, 'g')),
                i -> i < keys ? "116 k%09d=%s\n".formatted(i, "v".repeat(100)).getBytes(StandardCharsets.US_ASCII) : null,
                pad(size), tail()));
    }

    /** One GNU long name of {@code mebibytes} MiB. */
    public static InputStream longName(int mebibytes) {
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) 'a');
        return gzipped(concat(List.of(header("././@LongLink", (long) mebibytes << 20, 'L')),
                i -> i < mebibytes ? chunk : null, new byte[0], tail()));
    }

    /** {@code count} extension headers of {@code type} ({@code L} or {@code x}) in a row, before one file. */
    public static InputStream chain(int count, char type) {
        byte[] data = type == 'x' ? "11 a=bbbbb\n".getBytes(StandardCharsets.US_ASCII) : "n\0".getBytes(StandardCharsets.US_ASCII);
        byte[] one = entry("././@LongLink", data, type);
        return gzipped(concat(List.of(), i -> i < count ? one : null, new byte[0], tail()));
    }

    /** A ustar header as {@code mkbomb.py} writes it, of any type. */
    public static byte[] header(String name, long size, char type) {
        byte[] h = new byte[512];
        put(h, 0, name);
        put(h, 100, "0000644\0" + "0000000\0" + "0000000\0");
        put(h, 124, "%011o\0".formatted(size));
        put(h, 136, "00000000000\0");
        h[156] = (byte) type;
        put(h, 257, "ustar\0" + "00");
        put(h, 148, "        ");
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, "%06o\0 ".formatted(sum));
        return h;
    }

    /** A header and its data, padded to whole blocks. */
    public static byte[] entry(String name, byte[] data, char type) {
        byte[] whole = new byte[512 + data.length + pad(data.length).length];
        System.arraycopy(header(name, data.length, type), 0, whole, 0, 512);
        System.arraycopy(data, 0, whole, 512, data.length);
        return whole;
    }

    /** The whole stream in memory, for an upload. */
    public static byte[] bytes(InputStream bomb) {
        try (bomb) {
            return bomb.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] tail() {
        byte[] file = entry("x", "1".getBytes(StandardCharsets.US_ASCII), '0');
        return Arrays.copyOf(file, file.length + 1024);
    }

    private static byte[] pad(long size) {
        return new byte[(int) (-size & 511)];
    }

    private static void put(byte[] h, int at, String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(b, 0, h, at, b.length);
    }

    /** {@code head}, then {@code body(0)}, {@code body(1)}, ... until it gives null, then the rest; generated as read. */
    private static InputStream concat(List<byte[]> head, IntFunction<byte[]> body, byte[] padding, byte[] end) {
        Iterator<byte[]> first = head.iterator();
        return new Generated(new Supplier<>() {
            private int index;
            private int stage; // 0 head, 1 body, 2 padding, 3 end, 4 done

            @Override
            public byte[] get() {
                if (stage == 0 && first.hasNext()) {
                    return first.next();
                }
                if (stage <= 1) {
                    stage = 1;
                    byte[] chunk = body.apply(index++);
                    if (chunk != null) {
                        return chunk;
                    }
                    stage = 2;
                }
                stage++;
                return stage == 3 ? padding : stage == 4 ? end : null;
            }
        });
    }

    /** A gzip stream (RFC 1952) of {@code raw}, compressed as it is read; its trailer is made once all was read. */
    private static InputStream gzipped(InputStream raw) {
        CRC32 crc = new CRC32();
        long[] length = new long[1];
        InputStream counted = new CheckedInputStream(raw, crc) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    length[0] += n;
                }
                return n;
            }
        };
        DeflaterInputStream deflated = new DeflaterInputStream(counted, new Deflater(1, true), 64 * 1024);
        byte[] chunk = new byte[64 * 1024];
        int[] stage = {0};
        return new Generated(() -> {
            try {
                switch (stage[0]) {
                    case 0 -> {
                        stage[0] = 1;
                        return new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
                    }
                    case 1 -> {
                        int n = deflated.read(chunk);
                        if (n >= 0) {
                            return Arrays.copyOf(chunk, n);
                        }
                        stage[0] = 2; // all was read: the trailer can be made
                        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                                .putInt((int) crc.getValue()).putInt((int) length[0]).array();
                    }
                    default -> {
                        return null;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Bytes from chunks made one at a time; closing it generates nothing more. */
    private static final class Generated extends InputStream {
        private final Supplier<byte[]> chunks;
        private byte[] current = new byte[0];
        private int at;

        Generated(Supplier<byte[]> chunks) {
            this.chunks = chunks;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            while (current != null && at == current.length) {
                current = chunks.get();
                at = 0;
            }
            if (current == null) {
                return -1;
            }
            int n = Math.min(len, current.length - at);
            System.arraycopy(current, at, b, off, n);
            at += n;
            return n;
        }
    }
}
