package io.paddlejobs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Token files as an operator writes them: hashes from {@code printf %s "$TOKEN" | sha256sum}, and
 * the file itself, for {@code paddlejobs.security.token-file}.
 */
public final class Tokens {

    private Tokens() {
    }

    /**
     * Writes {@code tokens.yaml} into {@code dir}.
     *
     * @return its path, as {@code paddlejobs.security.token-file} takes it
     */
    public static String file(Path dir, String yaml) {
        try {
            return Files.writeString(dir.resolve("tokens.yaml"), yaml).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A token file of two tenants: alice may use namespace {@code team-a}, bob {@code team-b}. */
    public static String aliceAndBob(Path dir, String aliceToken, String bobToken) {
        return file(dir, """
                tokens:
                  - user: alice
                    sha256: %s
                    namespaces: [team-a]
                  - user: bob
                    sha256: %s
                    namespaces: [team-b]
                """.formatted(sha256(aliceToken), sha256(bobToken)));
    }

    public static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
