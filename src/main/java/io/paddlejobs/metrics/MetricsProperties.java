package io.paddlejobs.metrics;

import io.paddlejobs.job.BackendProperties;
import jakarta.validation.constraints.Min;
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
 */
@Validated
@ConfigurationProperties("paddlejobs.metrics")
public record MetricsProperties(
        @DefaultValue("1000") @Min(4) int pointsPerSeries,
        @DefaultValue("64") @Min(1) int seriesPerJob,
        @DefaultValue("64") @Min(1) int trainersFollowed,
        @DefaultValue("200") @Min(1) int jobsKept) {

    /**
     * On Kubernetes a trainer is heard only through the follow of its log that the metrics make: a trainer past
     * {@code trainers-followed} would count as silent from its start, and a {@code stall_timeout} would fail a
     * job that prints. Such settings are refused at start rather than left to misjudge a job.
     */
    public void requireEveryTrainerHeard(BackendProperties.Kind backend, int maxTrainers) {
        if (backend == BackendProperties.Kind.KUBERNETES && maxTrainers > trainersFollowed) {
            throw new IllegalStateException(("paddlejobs.limits.max-trainers=%d is above paddlejobs.metrics.trainers-followed=%d:"
                    + " on Kubernetes a trainer is heard only through the follow of its log, and stall_timeout would count"
                    + " trainers past %d as silent. Raise paddlejobs.metrics.trainers-followed to at least %d.")
                    .formatted(maxTrainers, trainersFollowed, trainersFollowed, maxTrainers));
        }
    }
}
