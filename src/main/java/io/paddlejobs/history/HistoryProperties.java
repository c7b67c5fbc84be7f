package io.paddlejobs.history;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.util.unit.DataSize;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What the job history keeps ({@code paddlejobs.history.*}); where it keeps it is
 * {@code spring.datasource.*} (the embedded H2 file under the data root unless told).
 *
 * @param dir       where the embedded store's file is, when {@code spring.datasource.url} names no other
 *                  (application.yaml: {@code <paddlejobs.local.data-root>/history})
 * @param maxLogSize how much of each replica's log is kept when the job finishes, served once the
 *                  backend forgot the job: all of a log up to this size, the end of a longer one
 * @param retryEvery how soon a change the store could not take is written again
 * @param retention how long finished jobs are kept
 */
@Validated
@ConfigurationProperties("paddlejobs.history")
public record HistoryProperties(
        @DefaultValue("data/history") @NotNull Path dir,
        @DefaultValue("4MB") @NotNull DataSize maxLogSize,
        @DefaultValue("5s") @NotNull Duration retryEvery,
        @DefaultValue @Valid @NotNull Retention retention) {

    /** The most a replica's log may be kept at: it is read into memory whole before it is written. */
    static final DataSize LARGEST_LOG = DataSize.ofGigabytes(1);

    public HistoryProperties {
        if (maxLogSize != null && maxLogSize.compareTo(LARGEST_LOG) > 0) {
            throw new IllegalArgumentException("paddlejobs.history.max-log-size must be at most " + LARGEST_LOG);
        }
    }

    /**
     * Finished jobs beyond either limit are removed from the history, in the background.
     *
     * @param maxAge     a finished job is kept this long after it finished
     * @param maxCount   at most this many finished jobs are kept per namespace, each namespace's most
     *                   recently finished: one namespace's many jobs never evict another's
     * @param checkEvery how often the limits are enforced
     */
    public record Retention(
            @DefaultValue("30d") @NotNull Duration maxAge,
            @DefaultValue("100000") @Min(1) int maxCount,
            @DefaultValue("10m") @NotNull Duration checkEvery) {
    }
}
