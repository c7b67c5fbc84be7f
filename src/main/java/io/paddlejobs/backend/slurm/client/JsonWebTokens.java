package io.paddlejobs.backend.slurm.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slurm's JWTs (HS256 over {@code {"exp","iat","sun"}}), minted here from the cluster's key, as
 * {@code scontrol token} would, and renewed before they expire.
 */
public final class JsonWebTokens {

    private static final long LIFETIME_SECONDS = 600;
    private static final long RENEW_BEFORE_SECONDS = 60;

    private final byte[] key;
    private final String user;
    private final Clock clock = Clock.systemUTC();
    private String token;
    private long expires;

    public JsonWebTokens(byte[] key, String user) {
        this.key = key.clone();
        this.user = user;
    }

    String user() {
        return user;
    }

    public synchronized String current() {
        long now = clock.instant().getEpochSecond();
        if (token == null || now > expires - RENEW_BEFORE_SECONDS) {
            expires = now + LIFETIME_SECONDS;
            token = mint(now, expires);
        }
        return token;
    }

    private String mint(long issued, long expiry) {
        String header = base64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
        String payload = base64("{\"exp\":" + expiry + ",\"iat\":" + issued + ",\"sun\":\"" + user + "\"}");
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] signature = mac.doFinal((header + "." + payload).getBytes(StandardCharsets.UTF_8));
            return header + "." + payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    private static String base64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
