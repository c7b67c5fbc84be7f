package io.paddlejobs.packages;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Reads a gzipped tar entry by entry and unpacks only what cannot reach outside its directory:
 * plain files and directories with relative names and no {@code ..}; links, devices and absolute
 * names are refused, and so are archives over the entry count or the unpacked size. The same walk
 * checks an upload (writing nothing) and unpacks it for a job, so both refuse the same archives.
 */
final class SafeArchive {

    private final long maxUnpackedBytes;
    private final int maxEntries;

    SafeArchive(long maxUnpackedBytes, int maxEntries) {
        this.maxUnpackedBytes = maxUnpackedBytes;
        this.maxEntries = maxEntries;
    }

    /** Reads the whole archive, writing nothing; an archive that would not unpack is an {@link InvalidPackageException}. */
    void check(InputStream gzippedTar) {
        walk(gzippedTar, null);
    }

    /** Unpacks into an existing directory. */
    void unpack(InputStream gzippedTar, Path directory) {
        walk(gzippedTar, directory.toAbsolutePath().normalize());
    }

    private void walk(InputStream gzippedTar, Path directory) {
        int entries = 0;
        long unpacked = 0;
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(gzippedTar))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (++entries > maxEntries) {
                    throw InvalidPackageException.badArchive("it has more than " + maxEntries + " entries");
                }
                String relative = relativeName(entry.getName());
                Path target = directory == null || relative.isEmpty() ? null : inside(directory, relative);
                if (entry.isDirectory()) {
                    if (target != null) {
                        Files.createDirectories(target);
                    }
                    continue;
                }
                if (entry.isSymbolicLink() || entry.isLink() || !entry.isFile() || relative.isEmpty()) {
                    throw InvalidPackageException.badArchive(
                            "'" + entry.getName() + "' is a link or a special file; only files and directories unpack");
                }
                unpacked += copy(tar, target, entry, maxUnpackedBytes - unpacked);
            }
        } catch (IOException e) {
            throw InvalidPackageException.badArchive("it could not be read (" + e.getMessage() + ")");
        }
    }

    /** {@code ./a/b.py} -> {@code a/b.py}; refuses absolute names and any {@code ..}. */
    static String relativeName(String name) {
        if (name.startsWith("/") || name.indexOf('\0') >= 0 || name.indexOf('\\') >= 0) {
            throw InvalidPackageException.badArchive("'" + name + "' is not a relative path");
        }
        StringBuilder relative = new StringBuilder();
        for (String segment : name.split("/")) {
            if (segment.equals("..")) {
                throw InvalidPackageException.badArchive("'" + name + "' reaches outside the package with '..'");
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                relative.append(relative.isEmpty() ? "" : "/").append(segment);
            }
        }
        return relative.toString();
    }

    private static Path inside(Path directory, String relative) {
        Path target = directory.resolve(relative).normalize();
        if (!target.startsWith(directory) || target.equals(directory)) {
            throw InvalidPackageException.badArchive("'" + relative + "' reaches outside the package");
        }
        return target;
    }

    /** Copies one file's bytes (or only counts them, with no target), at most {@code room} of them. */
    private long copy(InputStream in, Path target, TarArchiveEntry entry, long room) throws IOException {
        if (entry.getSize() > room) {
            throw tooBig();
        }
        OutputStream out = target == null ? OutputStream.nullOutputStream() : open(target, entry);
        try (out) {
            byte[] buffer = new byte[64 * 1024];
            long copied = 0;
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                copied += n;
                if (copied > room) {
                    throw tooBig();
                }
                out.write(buffer, 0, n);
            }
            return copied;
        }
    }

    private static OutputStream open(Path target, TarArchiveEntry entry) throws IOException {
        Files.createDirectories(target.getParent());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw InvalidPackageException.badArchive("'" + entry.getName() + "' is in the archive twice");
        }
        Path file = Files.createFile(target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                (entry.getMode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--")));
        return Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                LinkOption.NOFOLLOW_LINKS);
    }

    private InvalidPackageException tooBig() {
        return InvalidPackageException.badArchive("it unpacks to more than " + maxUnpackedBytes / (1024 * 1024) + " MiB");
    }
}
