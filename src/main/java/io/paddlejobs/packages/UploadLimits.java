package io.paddlejobs.packages;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What one user's uploads may hold of the service: at most {@code max-uploads-per-user} in flight,
 * and each must keep an average of {@link #MIN_RATE} once {@link #GRACE_PERIOD} has passed.
 * Tomcat's timeout is per read, so without the floor a client sending a byte every few seconds
 * holds a request thread for as long as it likes, and a few hundred of them the service.
 */
final class UploadLimits {

    /** Long enough for a connection's slow start and a busy client, short enough that a trickle is cut off soon. */
    static final Duration GRACE_PERIOD = Duration.ofSeconds(10);
    /** 64 KiB/s: a largest package (64 MiB) in 17 minutes; any link that uploads at all is faster. */
    static final long MIN_RATE = 64 * 1024;

    private final int perUser;
    private final Duration grace;
    private final long minBytesPerSecond;
    private final LongSupplier nanos;
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

    UploadLimits(PackagesProperties properties, LongSupplier nanos) {
        this.perUser = properties.maxUploadsPerUser();
        this.grace = GRACE_PERIOD;
        this.minBytesPerSecond = MIN_RATE;
        this.nanos = nanos;
    }

    /** One of the user's upload slots, given back on close; a 429 problem when they are all taken. */
    Slot take(String user) {
        boolean[] taken = {false};
        inFlight.compute(user, (u, n) -> {
            int now = n == null ? 0 : n;
            taken[0] = now < perUser;
            return taken[0] ? now + 1 : now;
        });
        if (!taken[0]) {
            throw UploadRefusedException.tooManyUploads(user, perUser);
        }
        return () -> inFlight.computeIfPresent(user, (u, n) -> n > 1 ? n - 1 : null);
    }

    /** The body, cut off with a 408 problem once its average rate falls below the floor after the grace period. */
    InputStream paced(InputStream body) {
        return new Paced(body, nanos.getAsLong());
    }

    /** A taken slot. */
    interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    private final class Paced extends FilterInputStream {
        private final long started;
        private long read;

        Paced(InputStream in, long started) {
            super(in);
            this.started = started;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) {
            read += n;
            long elapsed = nanos.getAsLong() - started;
            if (elapsed > grace.toNanos() && read < minBytesPerSecond * (elapsed / 1e9)) {
                throw UploadRefusedException.tooSlow(read, Duration.ofNanos(elapsed), minBytesPerSecond);
            }
        }
    }
}
