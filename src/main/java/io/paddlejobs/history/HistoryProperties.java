package io.paddlejobs.history;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What the job history keeps ({@code paddlejobs.history.*}); where it keeps it is
 * {@code spring.datasource.*} (the embedded H2 file under the data root unless told).
 *
 * @param dir       where the embedded store's file is, when {@code spring.datasource.url} names no other
 *                  (application.yaml: {@code <paddlejobs.local.data-root>/history})
 * @param logLines  the last lines of each replica's log kept when the job finishes, served once the
 *                  backend forgot the job
 * @param retention how long finished jobs are kept
 */
@Validated
@ConfigurationProperties("paddlejobs.history")
public record HistoryProperties(
        @DefaultValue("data/history") @NotNull Path dir,
        @DefaultValue("200") @Min(0) int logLines,
        @DefaultValue @Valid @NotNull Retention retention) {

    /**
     * Finished jobs beyond either limit are removed from the history, in the background.
     *
     * @param maxAge     a finished job is kept this long after it finished
     * @param maxCount   at most this many finished jobs are kept, the most recently finished
     * @param checkEvery how often the limits are enforced
     */
    public record Retention(
            @DefaultValue("30d") @NotNull Duration maxAge,
            @DefaultValue("100000") @Min(1) int maxCount,
            @DefaultValue("10m") @NotNull Duration checkEvery) {
    }
}
