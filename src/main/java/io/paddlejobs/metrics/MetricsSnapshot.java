package io.paddlejobs.metrics;

import io.paddlejobs.job.Progress;
import java.util.List;
import java.util.Map;

/**
 * A read of a job's metrics.
 *
 * @param cursor       pass it as {@code since} next time to get only what is new
 * @param ignoredLines report lines that broke the format or a limit, and were not charted
 * @param metrics      metric name to replica id ({@code trainer-0}) to points, in step order
 * @param progress     how far the job is ({@link MetricsCollector#progress}); {@code null} before any trainer reported
 */
public record MetricsSnapshot(long cursor, long ignoredLines, Map<String, Map<String, List<MetricPoint>>> metrics,
                              Progress progress) {

    MetricsSnapshot settled() {
        return progress == null ? this : new MetricsSnapshot(cursor, ignoredLines, metrics, progress.settled());
    }
}
