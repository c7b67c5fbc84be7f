package io.paddlejobs.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures (standardwebhooks.com): a secret is {@code whsec_} and the base64 of
 * its bytes; a signature is {@code v1,} and the base64 of HMAC-SHA256 over
 * {@code <webhook-id>.<webhook-timestamp>.<body>} with those bytes, what the specification's
 * libraries verify.
 */
final class Signatures {

    static final String SECRET_PREFIX = "whsec_";

    private static final SecureRandom RANDOM = new SecureRandom();

    private Signatures() {
    }

    /** A new secret of 32 random bytes, as a receiver's library takes it. */
    static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /** Whether {@code secret} is one {@link #sign} can use: {@code whsec_} and base64 of at least 24 bytes. */
    static boolean valid(String secret) {
        if (secret == null || !secret.startsWith(SECRET_PREFIX)) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length())).length >= 24;
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    /** The {@code webhook-signature} header's value. */
    static String sign(String secret, String id, long timestampSeconds, String body) {
        byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] signed = mac.doFinal((id + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(signed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
