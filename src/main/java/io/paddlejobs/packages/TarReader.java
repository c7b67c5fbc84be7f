package io.paddlejobs.packages;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A tar reader for uploads, one header at a time and in a loop: ustar and GNU headers, GNU long
 * names and links ({@code L}, {@code K}) and PAX headers ({@code x}, {@code g}). Every header is
 * bounded before it is read: an extension header's data at most {@link #MAX_HEADER_BYTES}, at most
 * {@link #MAX_EXTENSIONS} of them before one entry, and {@link #headers()} counts every block the
 * caller charges against its entry cap. (commons-compress read extension data whole and followed
 * chained headers by recursion: one upload could exhaust the heap or the stack.)
 */
final class TarReader {

    static final int BLOCK = 512;
    /** A long name, a long link or one PAX header's records: far above any real path. */
    static final int MAX_HEADER_BYTES = 64 * 1024;
    /** Extension headers before one entry: a long name, a long link, a PAX header, and one global PAX header. */
    static final int MAX_EXTENSIONS = 4;

    /** One entry as its headers describe it; {@code type} is the ustar type flag. */
    record Entry(String name, String linkName, char type, long size, int mode) {

        boolean isDirectory() {
            return type == '5' || ((type == '0' || type == '\0') && name.endsWith("/"));
        }

        boolean isRegularFile() {
            return (type == '0' || type == '\0') && !name.endsWith("/");
        }

        /** What a refused entry is, in words. */
        String kind() {
            return switch (type) {
                case '1' -> "a hard link";
                case '2' -> "a symbolic link";
                case '3' -> "a character device";
                case '4' -> "a block device";
                case '6' -> "a FIFO";
                case '7' -> "a contiguous file";
                case 'D' -> "a GNU dump directory";
                case 'V' -> "a volume label";
                case 'M' -> "a multi-volume continuation";
                case 'S' -> "a sparse file";
                default -> "an entry of unknown type '" + printable(type) + "'";
            };
        }
    }

    private final InputStream in;
    private final byte[] header = new byte[BLOCK];
    private long remaining; // of the current entry's data
    private long padding;   // after it, to the next block
    private int headers;
    private long extensionBytes;

    TarReader(InputStream in) {
        this.in = in;
    }

    /** Every header block read so far, extension headers included. */
    int headers() {
        return headers;
    }

    /** Bytes of extension-header data read so far (long names, PAX records). */
    long extensionBytes() {
        return extensionBytes;
    }

    /** The next entry, or {@code null} at the archive's end; the current entry's unread data is skipped. */
    Entry next() throws IOException {
        skip(remaining + padding);
        remaining = 0;
        padding = 0;
        String longName = null;
        String longLink = null;
        Pax pax = Pax.NONE;
        for (int extensions = 0; ; extensions++) {
            if (!readHeader()) {
                if (extensions > 0) {
                    throw new EOFException("it ends after a long-name or PAX header, with no entry");
                }
                return null;
            }
            char type = (char) (header[156] & 0xff);
            long size = size();
            if (type != 'L' && type != 'K' && type != 'x' && type != 'g') {
                String name = pax.path() != null ? pax.path() : longName != null ? longName : headerName();
                String link = pax.linkPath() != null ? pax.linkPath() : longLink != null ? longLink : text(header, 157, 100);
                long dataSize = pax.size() >= 0 ? pax.size() : size;
                remaining = dataSize;
                padding = -dataSize & (BLOCK - 1);
                return new Entry(name, link, type, dataSize, (int) octal(100, 8, "mode"));
            }
            if (extensions == MAX_EXTENSIONS) {
                throw refused("more than " + MAX_EXTENSIONS + " long-name or PAX headers precede one entry");
            }
            if (size > MAX_HEADER_BYTES) {
                throw refused("a " + (type == 'x' || type == 'g' ? "PAX" : "long-name") + " header holds " + size
                        + " bytes, over the " + MAX_HEADER_BYTES / 1024 + " KiB a header may hold");
            }
            byte[] data = in.readNBytes((int) size);
            if (data.length < size) {
                throw new EOFException("it ends inside a header");
            }
            skip(-size & (BLOCK - 1));
            extensionBytes += size;
            switch (type) {
                case 'L' -> longName = utf8(data, 0, length(data, 0, data.length));
                case 'K' -> longLink = utf8(data, 0, length(data, 0, data.length));
                case 'x' -> pax = Pax.parse(data, false);
                default -> Pax.parse(data, true); // global: checked, and must not name a path or size
            }
        }
    }

    /** Reads the current entry's data, never past its end. */
    int read(byte[] buffer, int offset, int length) throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int n = in.read(buffer, offset, (int) Math.min(length, remaining));
        if (n < 0) {
            throw new EOFException("it ends inside an entry's data");
        }
        remaining -= n;
        return n;
    }

    /** False at the end: a block of zeros, or the stream's end where a header would start. */
    private boolean readHeader() throws IOException {
        int n = in.readNBytes(header, 0, BLOCK);
        if (n == 0) {
            return false;
        }
        if (n < BLOCK) {
            throw new EOFException("it ends inside a header");
        }
        headers++;
        boolean zeros = true;
        for (byte b : header) {
            zeros &= b == 0;
        }
        if (zeros) {
            return false;
        }
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            byte b = i >= 148 && i < 156 ? (byte) ' ' : header[i];
            unsigned += b & 0xff;
            signed += b;
        }
        long recorded = octal(148, 8, "checksum");
        if (recorded != unsigned && recorded != signed) {
            throw refused("a header's checksum is wrong (is it a tar?)");
        }
        return true;
    }

    /** The name field, behind the ustar prefix when the header is POSIX ustar (GNU headers use those bytes otherwise). */
    private String headerName() throws IOException {
        String name = text(header, 0, 100);
        boolean posix = header[257] == 'u' && header[258] == 's' && header[259] == 't' && header[260] == 'a'
                && header[261] == 'r' && header[262] == 0;
        String prefix = posix ? text(header, 345, 155) : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private long size() throws IOException {
        if ((header[124] & 0x80) == 0) {
            return octal(124, 12, "size");
        }
        // GNU base-256: a positive number in the remaining 11 bytes; anything past 2^63 is refused.
        if (header[124] != (byte) 0x80 || header[125] < 0 || header[126] < 0 || header[127] < 0) {
            throw refused("an entry's size is negative or beyond reason");
        }
        long size = 0;
        for (int i = 125; i < 136; i++) {
            size = (size << 8) | (header[i] & 0xff);
        }
        return size;
    }

    private long octal(int offset, int length, String field) throws IOException {
        long value = 0;
        int i = offset;
        int end = offset + length;
        while (i < end && (header[i] == ' ' || header[i] == 0)) {
            i++;
        }
        for (; i < end && header[i] != ' ' && header[i] != 0; i++) {
            if (header[i] < '0' || header[i] > '7' || value > (Long.MAX_VALUE >> 3)) {
                throw refused("a header's " + field + " is not an octal number");
            }
            value = (value << 3) | (header[i] - '0');
        }
        return value;
    }

    private void skip(long bytes) throws IOException {
        try {
            in.skipNBytes(bytes);
        } catch (EOFException e) {
            throw new EOFException("it ends inside an entry's data");
        }
    }

    private static String text(byte[] bytes, int offset, int max) throws IOException {
        return utf8(bytes, offset, length(bytes, offset, max));
    }

    private static int length(byte[] bytes, int offset, int max) {
        int n = 0;
        while (n < max && bytes[offset + n] != 0) {
            n++;
        }
        return n;
    }

    static String utf8(byte[] bytes, int offset, int length) throws IOException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length)).toString();
        } catch (CharacterCodingException e) {
            throw refused("a name is not UTF-8");
        }
    }

    static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : "\\u%04x".formatted((int) c);
    }

    static Refused refused(String why) {
        return new Refused(why);
    }

    /** An archive this reader will not read further; the message says why, in words for the uploader. */
    static final class Refused extends IOException {
        Refused(String why) {
            super(why);
        }
    }

    /** What a PAX header says about the next entry: only path, linkpath and size matter here; -1 for no size. */
    private record Pax(String path, String linkPath, long size) {

        static final Pax NONE = new Pax(null, null, -1);

        /** Records are {@code "<length> <key>=<value>\n"}, the length counting the whole record. */
        static Pax parse(byte[] data, boolean global) throws IOException {
            String path = null;
            String linkPath = null;
            long size = -1;
            int at = 0;
            while (at < data.length && data[at] != 0) {
                int space = at;
                long length = 0;
                while (space < data.length && data[space] >= '0' && data[space] <= '9' && length < data.length) {
                    length = length * 10 + (data[space++] - '0');
                }
                if (space == at || space >= data.length || data[space] != ' ' || length < space - at + 3
                        || at + length > data.length || data[(int) (at + length - 1)] != '\n') {
                    throw refused("a PAX header is malformed");
                }
                int equals = space + 1;
                while (equals < at + length - 1 && data[equals] != '=') {
                    equals++;
                }
                if (equals >= at + length - 1) {
                    throw refused("a PAX header is malformed");
                }
                String key = utf8(data, space + 1, equals - space - 1);
                String value = utf8(data, equals + 1, (int) (at + length - 1 - equals - 1));
                at += (int) length;
                if (key.startsWith("GNU.sparse")) {
                    throw refused("a PAX header describes a sparse file; only plain files unpack");
                }
                if (global && (key.equals("path") || key.equals("linkpath") || key.equals("size"))) {
                    throw refused("a global PAX header sets '" + key + "'");
                }
                switch (key) {
                    case "path" -> path = value;
                    case "linkpath" -> linkPath = value;
                    case "size" -> size = parseSize(value);
                    default -> {
                        // mtime, uid, uname, ...: nothing that unpacking uses
                    }
                }
            }
            return new Pax(path, linkPath, size);
        }

        private static long parseSize(String value) throws IOException {
            if (!value.matches("[0-9]{1,18}")) {
                throw refused("a PAX header's size is not a number");
            }
            return Long.parseLong(value);
        }
    }
}
