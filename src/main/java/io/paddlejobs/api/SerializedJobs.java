package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.metrics.MetricsCollector;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A job's status and list line as JSON, written once per change however many read them: status
 * reads, status streams and namespace watches all take them from here, with the job's progress.
 */
@Component
public class SerializedJobs {

    // Enough for every job of a busy service's pages and streams; beyond it, they are written again.
    private static final int CAPACITY = 20_000;

    private final JsonCache<JobKey, io.paddlejobs.job.JobStatus> statuses;
    private final JsonCache<JobKey, JobSummary> summaries;

    private final MetricsCollector metrics;

    SerializedJobs(JsonMapper json, MetricsCollector metrics) {
        this.statuses = new JsonCache<>(json, CAPACITY);
        this.summaries = new JsonCache<>(json, CAPACITY);
        this.metrics = metrics;
    }

    /** The job with its status's {@code progress} from what its trainers reported: how every answer shows it. */
    public Job withProgress(Job job) {
        return metrics.progress(job).map(progress -> new Job(job.plan(), job.status().withProgress(progress)))
                .orElse(job);
    }

    public String status(Job job) {
        return statuses.json(job.key(), withProgress(job).status());
    }

    public String summary(Job job, Function<JobKey, String> statusUrls) {
        JobSummary summary = JobSummary.of(withProgress(job), statusUrls);
        return summaries.json(new JobKey(summary.namespace(), summary.name()), summary);
    }
}
