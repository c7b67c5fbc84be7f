package io.paddlejobs.packages;

import io.paddlejobs.job.CodePackages;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

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

    private final PackagesProperties properties;
    private final SafeArchive archive;
    private final ContentUrls urls;

    public PackageStore(PackagesProperties properties) {
        this.properties = properties;
        this.archive = new SafeArchive(properties.maxUnpackedSize().toBytes(), properties.maxEntries());
        this.urls = new ContentUrls(properties);
    }

    org.springframework.util.unit.DataSize maxSize() {
        return properties.maxSize();
    }

    /** Reads an upload to its end (at most max-size), checks that it unpacks safely, and keeps it. */
    Stored store(String namespace, InputStream upload) throws IOException {
        Path folder = Files.createDirectories(properties.dir().resolve(namespace));
        Path temporary = Files.createTempFile(folder, ".upload-", ".part");
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
            if (Files.exists(stored)) {
                return new Stored("sha256:" + hex, size, false);
            }
            Files.move(temporary, stored, StandardCopyOption.ATOMIC_MOVE);
            return new Stored("sha256:" + hex, size, true);
        } finally {
            Files.deleteIfExists(temporary);
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
        return find(namespace, id);
    }

    @Override
    public Fetch fetch(String namespace, String id) {
        return new Fetch(urls.path(namespace, id), properties.maxSize().toBytes(), properties.maxUnpackedSize().toBytes());
    }

    @Override
    public boolean exists(String namespace, String id) {
        return find(namespace, id).isPresent();
    }

    @Override
    public void unpackInto(String namespace, String id, Path directory) throws IOException {
        Path stored = find(namespace, id).orElseThrow(() -> new IOException(
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

    private static long copyAtMost(InputStream in, OutputStream out, long limit) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long copied = 0;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            copied += n;
            if (copied > limit) {
                throw new PackageTooLargeException(org.springframework.util.unit.DataSize.ofBytes(limit));
            }
            out.write(buffer, 0, n);
        }
        return copied;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
