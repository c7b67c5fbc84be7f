package io.paddlejobs.api.stream;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How many streams the service serves ({@code paddlejobs.streams.*}). Event streams, status streams
 * ({@code GET …/status}, {@code Accept: text/event-stream}) and watches ({@code GET /jobs?watch=true})
 * together, hold no thread but about 58 KiB of heap each; log responses hold a thread each. Mode
 * {@code none} has one caller, so there the per-user figures are the service's.
 *
 * @param maxOpen        event streams open at once in all; past it, a 503 problem. Its last quarter is kept for
 *                       callers holding fewer than 2: one holding more is refused (429) past three quarters
 * @param maxOpenPerUser event streams open at once per caller; past it, a 429 problem. At most a sixteenth
 *                       of {@code max-open}, so that a few callers cannot hold every stream
 * @param sendersPerUser sends of one caller's event streams that run at once; the rest of that
 *                       caller's wait, no other caller's do
 * @param sendTimeout    how long one send may take; a stream whose client stopped reading is dropped then
 * @param logs           log responses ({@code GET …/logs})
 */
@Validated
@ConfigurationProperties("paddlejobs.streams")
public record StreamProperties(@DefaultValue("4096") @Min(1) int maxOpen,
                               @DefaultValue("256") @Min(1) int maxOpenPerUser,
                               @DefaultValue("4") @Min(1) int sendersPerUser,
                               @DefaultValue("10s") Duration sendTimeout,
                               @Valid @DefaultValue Logs logs) {

    /** How many callers at their cap it takes to hold every event stream (the review of 6 Dec: 1024 of 4096 took four). */
    static final int FAIR_SHARES = 16;

    /**
     * Refuses, at start, a per-caller cap so near the total that a few callers hold every event stream and every
     * other caller's is refused (503) for as long as theirs stay open: a watch has no end of its own.
     */
    public void requireFairShare() {
        if ((long) maxOpenPerUser * FAIR_SHARES > maxOpen) {
            throw new IllegalStateException(("paddlejobs.streams.max-open-per-user=%d is more than a sixteenth of"
                    + " paddlejobs.streams.max-open=%d: %d callers at their cap would hold every event stream, and every"
                    + " other caller's would be refused. Lower paddlejobs.streams.max-open-per-user to at most %d, or raise"
                    + " paddlejobs.streams.max-open to at least %d.").formatted(maxOpenPerUser, maxOpen,
                    (maxOpen + maxOpenPerUser - 1) / maxOpenPerUser, Math.max(1, maxOpen / FAIR_SHARES),
                    (long) maxOpenPerUser * FAIR_SHARES));
        }
    }

    /**
     * Log responses.
     *
     * @param maxOpen        open at once in all; past it, a 503 problem. Its last quarter is kept for callers
     *                       holding fewer than 2: one holding more is refused (429) past three quarters
     * @param maxOpenPerUser open at once per caller; past it, a 429 problem
     */
    public record Logs(@DefaultValue("256") @Min(1) int maxOpen,
                       @DefaultValue("32") @Min(1) int maxOpenPerUser) {
    }
}
