package io.paddlejobs.packages;

import io.paddlejobs.job.CodePackages;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.util.unit.DataSize;

/**
 * Uploaded code packages on disk, {@code <dir>/<namespace>/<sha256>.tar.gz}: named by their
 * content, so uploading the same archive again changes nothing, and kept per namespace, so a
 * package is found only by the namespace that uploaded it.
 */
public final class PackageStore implements CodePackages {

    static final Pattern ID = Pattern.compile("sha256:([0-9a-f]{64})");
    /** A namespace is a DNS label: never a path that reaches outside {@code dir}. */
    static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    /** A stored package; {@code created} is false when the namespace had it already. */
    record Stored(String id, long size, boolean created) {
    }

    /** A kept package: {@code created} is when it was first stored, {@code lastUsed} when a job, a pod or an upload last named it. */
    record Kept(String id, long size, Instant created, Instant lastUsed) {
    }

    private final PackagesProperties properties;
    private final DataSize minFreeSpace;
    private final SafeArchive archive;
    private final ContentUrls urls;
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    /** @param minFreeSpace below this much free space where packages are kept, uploads are refused ({@code paddlejobs.min-free-space}) */
    public PackageStore(PackagesProperties properties, DataSize minFreeSpace) {
        this.properties = properties;
        this.minFreeSpace = minFreeSpace;
        this.archive = new SafeArchive(properties.maxUnpackedSize().toBytes(), PackagesProperties.MAX_ENTRIES);
        this.urls = new ContentUrls(properties);
    }

    DataSize maxSize() {
        return properties.maxSize();
    }

    /**
     * Reads an upload to its end (at most max-size), checks that it unpacks safely, and keeps it
     * within the namespace's quota and above the disk floor; nothing is kept when it is refused.
     */
    Stored store(String namespace, InputStream upload) throws IOException {
        Path folder;
        Path temporary;
        try {
            folder = Files.createDirectories(properties.dir().resolve(namespace));
            requireFloor(folder);
            temporary = Files.createTempFile(folder, ".upload-", ".part");
        } catch (FileSystemException e) {
            throw UploadRefusedException.writeFailed();
        }
        try {
            MessageDigest sha256 = sha256();
            long size;
            try (OutputStream out = new DigestOutputStream(Files.newOutputStream(temporary), sha256)) {
                size = copyAtMost(upload, out, properties.maxSize().toBytes());
            }
            try (InputStream in = Files.newInputStream(temporary)) {
                archive.check(in);
            }
            String hex = HexFormat.of().formatHex(sha256.digest());
            Path stored = folder.resolve(hex + ".tar.gz");
            synchronized (lockOf(namespace)) {
                if (Files.exists(stored)) {
                    markUsed(stored);
                    return new Stored("sha256:" + hex, size, false);
                }
                requireQuota(namespace, size);
                Files.move(temporary, stored, StandardCopyOption.ATOMIC_MOVE);
                markUsed(stored);
                return new Stored("sha256:" + hex, size, true);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** A namespace's packages, oldest first. */
    List<Kept> list(String namespace) throws IOException {
        Path folder = properties.dir().resolve(namespace);
        if (!NAMESPACE.matcher(namespace).matches() || !Files.isDirectory(folder)) {
            return List.of();
        }
        List<Kept> kept = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.tar.gz")) {
            for (Path file : files) {
                String hex = file.getFileName().toString().replace(".tar.gz", "");
                if (ID.matcher("sha256:" + hex).matches()) {
                    try {
                        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                                LinkOption.NOFOLLOW_LINKS);
                        if (attributes.isRegularFile()) {
                            kept.add(new Kept("sha256:" + hex, attributes.size(), attributes.lastModifiedTime().toInstant(),
                                    attributes.lastAccessTime().toInstant()));
                        }
                    } catch (NoSuchFileException e) {
                        // deleted while listed
                    }
                }
            }
        }
        kept.sort(Comparator.comparing(Kept::created).thenComparing(Kept::id));
        return kept;
    }

    /** The namespaces that keep packages. */
    List<String> namespaces() throws IOException {
        if (!Files.isDirectory(properties.dir())) {
            return List.of();
        }
        try (var folders = Files.list(properties.dir())) {
            return folders.filter(Files::isDirectory).map(folder -> folder.getFileName().toString())
                    .filter(name -> NAMESPACE.matcher(name).matches()).sorted().toList();
        }
    }

    /** Removes a namespace's package; false when it had none by that id. */
    boolean delete(String namespace, String id) throws IOException {
        Optional<Path> stored = find(namespace, id);
        if (stored.isEmpty()) {
            return false;
        }
        synchronized (lockOf(namespace)) {
            return Files.deleteIfExists(stored.get());
        }
    }

    /** The stored archive, if this namespace uploaded it. */
    Optional<Path> find(String namespace, String id) {
        var match = id == null ? null : ID.matcher(id);
        if (match == null || !match.matches()) {
            return Optional.empty();
        }
        Path stored = properties.dir().resolve(namespace).resolve(match.group(1) + ".tar.gz");
        return Files.isRegularFile(stored) ? Optional.of(stored) : Optional.empty();
    }

    /**
     * The stored archive, if this namespace uploaded it and {@code key} is its content URL's key;
     * a caller cannot tell which of the three it got wrong.
     */
    Optional<Path> findByContentKey(String namespace, String id, String key) {
        if (namespace == null || !NAMESPACE.matcher(namespace).matches() || !urls.verifies(namespace, id, key)) {
            return Optional.empty();
        }
        return find(namespace, id).map(PackageStore::markUsed);
    }

    @Override
    public Fetch fetch(String namespace, String id) {
        return new Fetch(urls.path(namespace, id), properties.maxSize().toBytes(), properties.maxUnpackedSize().toBytes());
    }

    @Override
    public boolean exists(String namespace, String id) {
        return find(namespace, id).map(PackageStore::markUsed).isPresent();
    }

    @Override
    public void unpackInto(String namespace, String id, Path directory) throws IOException {
        Path stored = find(namespace, id).map(PackageStore::markUsed).orElseThrow(() -> new IOException(
                "package " + id + " is no longer in namespace '" + namespace + "' (deleted or expired)"));
        try (InputStream in = Files.newInputStream(stored)) {
            archive.unpack(in, directory);
        } catch (InvalidPackageException e) {
            throw new IOException("package " + id + " did not unpack: " + e.getBody().getDetail());
        } catch (FileSystemException e) {
            // Its message names the host's path; the reason ("No space left on device") is what the user can act on.
            throw new IOException("package " + id + " did not unpack: "
                    + (e.getReason() != null ? e.getReason() : e.getClass().getSimpleName()));
        }
    }

    /** A failure to write is the disk's (507); a failure to read is the client's and stays an I/O error. */
    private static long copyAtMost(InputStream in, OutputStream out, long limit) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long copied = 0;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            copied += n;
            if (copied > limit) {
                throw new PackageTooLargeException(DataSize.ofBytes(limit));
            }
            try {
                out.write(buffer, 0, n);
            } catch (IOException e) {
                throw UploadRefusedException.writeFailed();
            }
        }
        return copied;
    }

    private void requireFloor(Path folder) throws IOException {
        long free = Files.getFileStore(folder).getUsableSpace();
        if (free < minFreeSpace.toBytes()) {
            throw UploadRefusedException.diskFloor(free, minFreeSpace);
        }
    }

    private void requireQuota(String namespace, long adding) throws IOException {
        List<Kept> kept = list(namespace);
        long bytes = kept.stream().mapToLong(Kept::size).sum();
        DataSize quota = properties.namespaceQuota();
        int maxCount = properties.namespaceMaxCount();
        if ((quota.toBytes() > 0 && bytes + adding > quota.toBytes()) || (maxCount > 0 && kept.size() + 1 > maxCount)) {
            throw UploadRefusedException.overQuota(namespace, bytes, kept.size(), adding, quota, maxCount);
        }
    }

    /** Last used is the archive's access time, set here rather than by reads (which mounts may not record). */
    private static Path markUsed(Path stored) {
        try {
            Files.getFileAttributeView(stored, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(null, FileTime.from(Instant.now()), null);
        } catch (IOException e) {
            // deleted meanwhile, or a read-only store: the package is still there to use
        }
        return stored;
    }

    private Object lockOf(String namespace) {
        return locks.computeIfAbsent(namespace, n -> new Object());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
