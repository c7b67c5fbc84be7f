package io.paddlejobs.metrics;

import io.paddlejobs.job.JobKey;
import java.util.Optional;

/**
 * Where a finished job's metrics are kept once its trainers all ended, to be served after the
 * backend forgot the job (the job history). Writes that fail are the archive's to report; the
 * collector goes on.
 */
public interface MetricsArchive {

    /** The job's metrics as its trainers left them. */
    void keepMetrics(JobKey key, MetricsSnapshot metrics);

    /** The metrics kept of the job, if any were. */
    Optional<MetricsSnapshot> keptMetrics(JobKey key);

    /** Keeps nothing (a collector without a history: tests of the collector alone). */
    MetricsArchive NONE = new MetricsArchive() {
        @Override
        public void keepMetrics(JobKey key, MetricsSnapshot metrics) {
        }

        @Override
        public Optional<MetricsSnapshot> keptMetrics(JobKey key) {
            return Optional.empty();
        }
    };
}
