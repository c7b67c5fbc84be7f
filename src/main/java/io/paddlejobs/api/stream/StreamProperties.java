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
 * @param maxOpen        event streams open at once in all; past it, a 503 problem
 * @param maxOpenPerUser event streams open at once per caller; past it, a 429 problem
 * @param sendersPerUser sends of one caller's event streams that run at once; the rest of that
 *                       caller's wait, no other caller's do
 * @param sendTimeout    how long one send may take; a stream whose client stopped reading is dropped then
 * @param logs           log responses ({@code GET …/logs})
 */
@Validated
@ConfigurationProperties("paddlejobs.streams")
public record StreamProperties(@DefaultValue("4096") @Min(1) int maxOpen,
                               @DefaultValue("1024") @Min(1) int maxOpenPerUser,
                               @DefaultValue("4") @Min(1) int sendersPerUser,
                               @DefaultValue("10s") Duration sendTimeout,
                               @Valid @DefaultValue Logs logs) {

    /**
     * Log responses.
     *
     * @param maxOpen        open at once in all; past it, a 503 problem
     * @param maxOpenPerUser open at once per caller; past it, a 429 problem
     */
    public record Logs(@DefaultValue("256") @Min(1) int maxOpen,
                       @DefaultValue("32") @Min(1) int maxOpenPerUser) {
    }
}
