package io.paddlejobs.packages;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/** Builds gzipped tars entry by entry, the harmful kinds included, for tests. */
public final class Archives {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final TarArchiveOutputStream tar;

    public Archives() {
        try {
            tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes));
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Archives file(String name, String content) {
        return file(name, content, 0644);
    }

    public Archives file(String name, String content, int mode) {
        byte[] data = content.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(name, true);
        entry.setSize(data.length);
        entry.setMode(mode);
        return add(entry, data);
    }

    public Archives directory(String name) {
        return add(new TarArchiveEntry(name.endsWith("/") ? name : name + "/", true), new byte[0]);
    }

    public Archives symlink(String name, String target) {
        TarArchiveEntry entry = new TarArchiveEntry(name, TarConstants.LF_SYMLINK, true);
        entry.setLinkName(target);
        return add(entry, new byte[0]);
    }

    public Archives hardlink(String name, String target) {
        TarArchiveEntry entry = new TarArchiveEntry(name, TarConstants.LF_LINK, true);
        entry.setLinkName(target);
        return add(entry, new byte[0]);
    }

    /** An empty entry of any ustar type: devices, FIFOs, contiguous files, volume labels, ... */
    public Archives special(String name, char type) {
        return add(new TarArchiveEntry(name, (byte) type, true), new byte[0]);
    }

    /** Names past 100 characters as GNU long-name headers rather than PAX ones. */
    public Archives gnuLongNames() {
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_GNU);
        return this;
    }

    public byte[] bytes() {
        try {
            tar.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private Archives add(TarArchiveEntry entry, byte[] data) {
        try {
            tar.putArchiveEntry(entry);
            tar.write(data);
            tar.closeArchiveEntry();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
