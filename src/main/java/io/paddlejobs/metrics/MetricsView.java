package io.paddlejobs.metrics;

import io.paddlejobs.job.Progress;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/** A job's metrics as served by {@code GET /jobs/{name}/metrics}. */
@Schema(description = "What a job's trainers reported: metrics, by metric name, then by replica id (trainer-0, ...), "
        + "each a list of points in step order")
public record MetricsView(
        String name,
        String namespace,
        @Schema(description = "Pass as since= to get only what was added after this read")
        long cursor,
        @Schema(description = "Lines that began with PADDLEJOBS_METRICS but broke the format or a limit; not charted")
        long ignoredLines,
        Map<String, Map<String, List<MetricPoint>>> metrics,
        @Schema(description = "How far the job is, as in its status; absent before any trainer reported")
        Progress progress,
        @Schema(description = "True once the job has finished and every line its trainers wrote has been read: "
                + "nothing more will come. A job's end is seen before its last lines are read (seconds, on a busy "
                + "machine): read again until this is true")
        boolean complete) {

    public static MetricsView of(String name, String namespace, MetricsSnapshot snapshot) {
        return new MetricsView(name, namespace, snapshot.cursor(), snapshot.ignoredLines(), snapshot.metrics(),
                snapshot.progress(), snapshot.complete());
    }
}
