package io.paddlejobs.packages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The addresses from which a job's pod fetches its package without a token:
 * {@code /packages/<id>/content?namespace=<ns>&key=<k>}, where {@code k} is an HMAC-SHA256 of the
 * namespace and the id under a key only the service holds. Nobody can make one up, and one
 * cannot be turned into another namespace's or another package's by editing it. The key is
 * {@code paddlejobs.packages.url-key} when set (several replicas of the service must share it),
 * else one generated once and kept beside the packages ({@code <dir>/.url-key}, owner-only), so a
 * restarted service still answers the addresses it gave out.
 */
final class ContentUrls {

    /** Not a DNS label (it starts with a dot), so no namespace's folder can take its place. */
    static final String KEY_FILE = ".url-key";

    private final PackagesProperties properties;
    private SecretKeySpec key; // read or made at first use, not at start-up: a service that ships no packages writes nothing

    ContentUrls(PackagesProperties properties) {
        this.properties = properties;
    }

    private synchronized SecretKeySpec key() {
        if (key == null) {
            key = new SecretKeySpec(keyBytes(properties), "HmacSHA256");
        }
        return key;
    }

    private static byte[] keyBytes(PackagesProperties properties) {
        if (properties.urlKey() != null) {
            return properties.urlKey().getBytes(StandardCharsets.UTF_8);
        }
        try {
            return keptKey(Files.createDirectories(properties.dir()).resolve(KEY_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("paddlejobs.packages.dir: cannot keep the content URL key there", e);
        }
    }

    /** The service-relative address of a namespace's package. */
    String path(String namespace, String id) {
        return "/packages/" + id + "/content?namespace=" + namespace + "&key=" + keyOf(namespace, id);
    }

    /** Whether {@code given} is the key of this namespace's package (compared in constant time). */
    boolean verifies(String namespace, String id, String given) {
        return given != null && MessageDigest.isEqual(keyOf(namespace, id).getBytes(StandardCharsets.US_ASCII),
                given.getBytes(StandardCharsets.US_ASCII));
    }

    private String keyOf(String namespace, String id) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key());
            // A namespace has no '/', so no two (namespace, id) pairs give the same text.
            byte[] digest = mac.doFinal((namespace + "/" + id).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    /** The key in {@code file}, made (32 random bytes) the first time; of two replicas making it at once, the first wins. */
    private static byte[] keptKey(Path file) throws IOException {
        if (!Files.exists(file)) {
            byte[] fresh = new byte[32];
            new SecureRandom().nextBytes(fresh);
            Path temporary = Files.createTempFile(file.getParent(), ".url-key-", ".part",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(temporary, Base64.getEncoder().encodeToString(fresh));
                Files.createLink(file, temporary); // unlike a rename, a link never replaces a key in use
            } catch (FileAlreadyExistsException e) {
                // another replica was first: use its key
            } finally {
                Files.deleteIfExists(temporary);
            }
        }
        return Base64.getDecoder().decode(Files.readString(file).strip());
    }
}
