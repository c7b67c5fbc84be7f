package io.paddlejobs.security;

import java.time.Clock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Submissions per minute, per user ({@code submissions-per-minute}). A submit or dry run takes a
 * {@link Permit} first; one that is refused, or that made nothing new (an identical retry), gives it
 * back on close. What the jobs of a namespace may hold is the job service's {@code Quota}, not this.
 */
@Component
public class SubmissionRateLimit {

    private final SubmissionRate rate;

    @Autowired
    SubmissionRateLimit() {
        this(Clock.systemUTC());
    }

    SubmissionRateLimit(Clock clock) {
        this.rate = new SubmissionRate(clock);
    }

    /** One submit's worth of the tenant's rate; a 429 problem with {@code Retry-After} when none is left. */
    public Permit take(Tenant tenant) {
        int perMinute = tenant.limits().submissionsPerMinute();
        rate.take(tenant.user(), perMinute).ifPresent(wait -> {
            throw RateLimitExceededException.of(tenant.user(), perMinute, wait);
        });
        return new Permit(tenant.user(), perMinute);
    }

    /** A submit taken from the rate: given back on close unless {@link #spend spent}. */
    public final class Permit implements AutoCloseable {

        private final String user;
        private final int perMinute;
        private boolean spent;

        private Permit(String user, int perMinute) {
            this.user = user;
            this.perMinute = perMinute;
        }

        /** The submit made something (a new job, a dry run's plan): it counts. */
        public void spend() {
            spent = true;
        }

        @Override
        public void close() {
            if (!spent) {
                rate.giveBack(user, perMinute);
            }
        }
    }
}
