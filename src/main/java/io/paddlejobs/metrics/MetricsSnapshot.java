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
 * @param complete     the job has finished and every line its trainers wrote has been read: nothing more will come
 *                     (a job's end is seen before its trainers' last lines are read, on a busy machine seconds before)
 */
public record MetricsSnapshot(long cursor, long ignoredLines, Map<String, Map<String, List<MetricPoint>>> metrics,
                              Progress progress, boolean complete) {

    /** Before any trainer reported. */
    public static final MetricsSnapshot NOTHING = new MetricsSnapshot(0, 0, Map.of(), null, false);

    public MetricsSnapshot(long cursor, long ignoredLines, Map<String, Map<String, List<MetricPoint>>> metrics,
                           Progress progress) {
        this(cursor, ignoredLines, metrics, progress, false);
    }

    /** A kept snapshot read with a cursor: nothing new for the cursor it ended at, else all of it. */
    MetricsSnapshot after(long since) {
        return since == cursor && since > 0 ? new MetricsSnapshot(cursor, ignoredLines, Map.of(), progress, complete)
                : this;
    }

    /** Of a finished job: its progress has no rate or time left. */
    MetricsSnapshot settled() {
        return progress == null ? this : new MetricsSnapshot(cursor, ignoredLines, metrics, progress.settled(), complete);
    }

    MetricsSnapshot completed(boolean complete) {
        return new MetricsSnapshot(cursor, ignoredLines, metrics, progress, complete);
    }
}
