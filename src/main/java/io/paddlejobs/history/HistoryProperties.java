package io.paddlejobs.history;

import io.paddlejobs.config.PlanningProperties;
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
 * {@code spring.datasource.*} (the embedded H2 file under the data root unless told), and the free
 * space it leaves on that file's disk {@code paddlejobs.min-free-space}.
 *
 * @param dir       where the embedded store's file is, when {@code spring.datasource.url} names no other
 *                  (application.yaml: {@code <paddlejobs.local.data-root>/history})
 * @param maxLogSize how much of each replica's log is kept when the job finishes, served once the
 *                  backend forgot the job: all of a log up to this size, the end of a longer one
 * @param maxEarlierLogSize how much of each replica's log of each earlier attempt of a job that restarted is kept
 *                  when it finishes, where the backend kept those logs apart: the end of it (where a crash's
 *                  traceback is), up to this size; {@code max-log-size} still bounds the attempt it finished on
 * @param retention how long finished jobs are kept
 */
@Validated
@ConfigurationProperties("paddlejobs.history")
public record HistoryProperties(
        @DefaultValue("data/history") @NotNull Path dir,
        @DefaultValue("4MB") @NotNull DataSize maxLogSize,
        @DefaultValue("64KB") @NotNull DataSize maxEarlierLogSize,
        @DefaultValue @Valid @NotNull Retention retention) {

    /** The most a replica's log may be kept at: it is read into memory whole before it is written. */
    static final DataSize LARGEST_LOG = DataSize.ofGigabytes(1);

    public HistoryProperties {
        if (maxLogSize != null && maxLogSize.compareTo(LARGEST_LOG) > 0) {
            throw new IllegalArgumentException("paddlejobs.history.max-log-size must be at most " + LARGEST_LOG);
        }
        if (maxEarlierLogSize != null && maxEarlierLogSize.compareTo(LARGEST_LOG) > 0) {
            throw new IllegalArgumentException("paddlejobs.history.max-earlier-log-size must be at most " + LARGEST_LOG);
        }
    }

    /**
     * Refuses, at start, a free-space floor smaller than one job's logs: the floor is looked at before a finished
     * job's logs are kept, and one job keeps up to {@code max-log-size} for each of its replicas, so a smaller floor
     * would let one job's logs take the history's disk past it, to its end.
     */
    public void requireFloorHoldsOneJobsLogs(PlanningProperties.Limits limits, DataSize minFreeSpace) {
        int replicas = limits.maxTrainers() + limits.maxPservers();
        long oneJob = maxLogSize.toBytes() * replicas;
        if (oneJob > minFreeSpace.toBytes()) {
            throw new IllegalStateException(("paddlejobs.history.max-log-size=%s for each of the %d replicas a job may have"
                    + " (paddlejobs.limits.max-trainers and max-pservers) is %d MB of logs, more than"
                    + " paddlejobs.min-free-space=%s: one finished job's logs, kept above the floor, could fill the"
                    + " history's disk. Lower paddlejobs.history.max-log-size to at most %d KB, or raise"
                    + " paddlejobs.min-free-space to at least %d MB.").formatted(written(maxLogSize), replicas, oneJob >> 20,
                    written(minFreeSpace), (minFreeSpace.toBytes() / replicas) >> 10, (oneJob + (1 << 20) - 1) >> 20));
        }
    }

    /** A size as an operator writes it: {@code 64MB}, {@code 500KB}, {@code 100B}. */
    private static String written(DataSize size) {
        long bytes = size.toBytes();
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + "MB" : bytes % 1024 == 0 ? (bytes >> 10) + "KB" : bytes + "B";
    }

    /**
     * Finished jobs beyond either limit are removed from the history, in the background.
     *
     * @param maxAge     a finished job is kept this long after it finished
     * @param maxCount   at most this many finished jobs are kept per namespace, each namespace's most
     *                   recently finished: one namespace's many jobs never evict another's
     */
    public record Retention(
            @DefaultValue("30d") @NotNull Duration maxAge,
            @DefaultValue("100000") @Min(1) int maxCount) {
    }
}
