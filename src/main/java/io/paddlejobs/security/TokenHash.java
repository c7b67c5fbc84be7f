package io.paddlejobs.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A bearer token's SHA-256, the only form in which the service keeps a token: the token file lists
 * hashes, and mode {@code kubernetes} keys its cached reviews by them.
 */
public final class TokenHash {

    private TokenHash() {
    }

    public static byte[] of(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** As {@code printf %s "$TOKEN" | sha256sum} prints it. */
    public static String hex(String token) {
        return HexFormat.of().formatHex(of(token));
    }
}
