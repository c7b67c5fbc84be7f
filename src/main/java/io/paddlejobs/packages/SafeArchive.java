package io.paddlejobs.packages;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads a gzipped tar entry by entry ({@link TarReader}: every header bounded, no recursion) and
 * unpacks only what cannot reach outside its directory: plain files and directories with relative
 * UTF-8 names, no {@code ..}, no component over {@value #MAX_COMPONENT_BYTES} bytes and no name
 * over {@value #MAX_NAME_BYTES}. Links, devices, FIFOs, contiguous, sparse, volume and dump-directory
 * entries are refused, and so is a name given twice as a file, or as a file and a directory (a
 * file then a path under it included). An archive over the entry cap (every header and every
 * directory a name implies count) or the unpacked size (file data and extension-header data
 * count) is refused too. The same walk checks an upload (writing nothing) and unpacks it for a
 * job, so unpacking never meets what the check let through.
 */
final class SafeArchive {

    static final int MAX_COMPONENT_BYTES = 255;
    /** Linux's PATH_MAX is 4096 for the whole path: the job's own directory takes the rest. */
    static final int MAX_NAME_BYTES = 3072;

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
        long unpacked = 0;
        Names names = new Names();
        try (InputStream gzip = new GZIPInputStream(gzippedTar, 64 * 1024)) {
            TarReader tar = new TarReader(gzip);
            for (TarReader.Entry entry = tar.next(); entry != null; entry = tar.next()) {
                String relative = relativeName(entry.name());
                if (entry.isDirectory() && !relative.isEmpty()) {
                    names.add(relative, true, entry.name());
                } else if (!entry.isDirectory()) {
                    if (!entry.isRegularFile()) {
                        throw InvalidPackageException.badArchive(quoted(entry.name()) + " is " + entry.kind()
                                + "; only files and directories unpack");
                    }
                    if (relative.isEmpty()) {
                        throw InvalidPackageException.badArchive(quoted(entry.name()) + " names no file");
                    }
                    names.add(relative, false, entry.name());
                }
                if (tar.headers() + names.implied() > maxEntries) {
                    throw InvalidPackageException.badArchive("it has more than " + maxEntries
                            + " entries (every header and every directory a name implies count)");
                }
                long room = maxUnpackedBytes - unpacked - tar.extensionBytes();
                if (entry.isDirectory()) {
                    if (entry.size() > 0) {
                        throw InvalidPackageException.badArchive("directory " + quoted(entry.name()) + " carries data");
                    }
                    if (directory != null && !relative.isEmpty()) {
                        Files.createDirectories(inside(directory, relative));
                    }
                    continue;
                }
                unpacked += copy(tar, directory == null ? null : inside(directory, relative), entry, room);
            }
        } catch (TarReader.Refused e) {
            throw InvalidPackageException.badArchive(e.getMessage());
        } catch (IOException e) {
            throw InvalidPackageException.badArchive("it could not be read (" + e.getMessage() + ")");
        }
    }

    /** {@code ./a/b.py} -> {@code a/b.py}; refuses absolute names and any {@code ..}. */
    static String relativeName(String name) {
        if (name.startsWith("/") || name.indexOf('\0') >= 0 || name.indexOf('\\') >= 0) {
            throw InvalidPackageException.badArchive(quoted(name) + " is not a relative path");
        }
        if (utf8Length(name) > MAX_NAME_BYTES) {
            throw InvalidPackageException.badArchive(quoted(name) + " is a name over " + MAX_NAME_BYTES + " bytes");
        }
        StringBuilder relative = new StringBuilder();
        for (String segment : name.split("/")) {
            if (segment.equals("..")) {
                throw InvalidPackageException.badArchive(quoted(name) + " reaches outside the package with '..'");
            }
            if (utf8Length(segment) > MAX_COMPONENT_BYTES) {
                throw InvalidPackageException.badArchive(quoted(name) + " has a component over "
                        + MAX_COMPONENT_BYTES + " bytes");
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                relative.append(relative.isEmpty() ? "" : "/").append(segment);
            }
        }
        return relative.toString();
    }

    private static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A name as problem details quote it: at most 200 characters, so a long name cannot swell an answer or a status. */
    static String quoted(String name) {
        return "'" + (name.length() > 200 ? name.substring(0, 200) + "..." : name) + "'";
    }

    private static Path inside(Path directory, String relative) {
        Path target = directory.resolve(relative).normalize();
        if (!target.startsWith(directory) || target.equals(directory)) {
            throw InvalidPackageException.badArchive(quoted(relative) + " reaches outside the package");
        }
        return target;
    }

    /** Copies one file's bytes (or only counts them, with no target), at most {@code room} of them. */
    private long copy(TarReader in, Path target, TarReader.Entry entry, long room) throws IOException {
        if (entry.size() > room) {
            throw tooBig();
        }
        OutputStream out = target == null ? OutputStream.nullOutputStream() : open(target, entry);
        try (out) {
            byte[] buffer = new byte[64 * 1024];
            long copied = 0;
            for (int n = in.read(buffer, 0, buffer.length); n >= 0; n = in.read(buffer, 0, buffer.length)) {
                copied += n;
                if (copied > room) {
                    throw tooBig();
                }
                out.write(buffer, 0, n);
            }
            return copied;
        }
    }

    private static OutputStream open(Path target, TarReader.Entry entry) throws IOException {
        Files.createDirectories(target.getParent());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw InvalidPackageException.badArchive(quoted(entry.name()) + " is in the archive twice");
        }
        Path file = Files.createFile(target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                (entry.mode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--")));
        return Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                LinkOption.NOFOLLOW_LINKS);
    }

    private InvalidPackageException tooBig() {
        return InvalidPackageException.badArchive("it unpacks to more than " + maxUnpackedBytes / (1024 * 1024) + " MiB");
    }

    /**
     * The paths an archive makes, as a tree of components (so memory follows the entry cap, not the
     * names' lengths): a clash is found here, where unpacking would meet it.
     */
    private static final class Names {
        private final Node root = new Node(false);
        private int implied;

        /** Directories that no entry of their own named (yet): they count against the entry cap too. */
        int implied() {
            return implied;
        }

        void add(String relative, boolean directory, String name) {
            String[] parts = relative.split("/");
            Node node = root;
            for (int i = 0; i < parts.length - 1; i++) {
                Node parent = node;
                node = parent.children.get(parts[i]);
                if (node == null) {
                    node = new Node(false);
                    parent.children.put(parts[i], node);
                    implied++;
                } else if (node.file) {
                    throw InvalidPackageException.badArchive(quoted(name) + " lies under a file of the same archive");
                }
            }
            Node existing = node.children.get(parts[parts.length - 1]);
            if (existing == null) {
                node.children.put(parts[parts.length - 1], new Node(!directory));
            } else if (existing.file || !directory) {
                throw InvalidPackageException.badArchive(quoted(name) + " is in the archive twice"
                        + (existing.file == !directory ? "" : ", as a file and as a directory"));
            }
        }
    }

    private static final class Node {
        final boolean file;
        final Map<String, Node> children = new HashMap<>();

        Node(boolean file) {
            this.file = file;
        }
    }
}
