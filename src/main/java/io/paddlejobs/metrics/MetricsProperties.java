package io.paddlejobs.metrics;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits on what the service keeps of the metrics jobs report ({@code paddlejobs.metrics.*}). At
 * the defaults a job holds at most 64 series of 1000 points (about 2 MiB), and 200 jobs' worth are
 * kept in memory.
 *
 * @param pointsPerSeries   points kept per metric and replica; when full, every other older point is dropped
 * @param seriesPerJob      (metric, replica) pairs per job; reports adding more are counted as ignored
 * @param trainersFollowed  the trainers whose output is read, from index 0 on; the rest are not charted
 * @param jobsKept          finished jobs whose points stay in memory; beyond it the least recently read go,
 *                          and are read again from their logs when asked for
 * @param retryInterval     how soon a replica's log is tried again when it is not there yet (a pod not started)
 */
@Validated
@ConfigurationProperties("paddlejobs.metrics")
public record MetricsProperties(
        @DefaultValue("1000") @Min(4) int pointsPerSeries,
        @DefaultValue("64") @Min(1) int seriesPerJob,
        @DefaultValue("64") @Min(1) int trainersFollowed,
        @DefaultValue("200") @Min(1) int jobsKept,
        @DefaultValue("2s") @NotNull Duration retryInterval) {
}
