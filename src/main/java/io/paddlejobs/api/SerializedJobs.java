package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A job's status and list line as JSON, written once per change however many read them: status
 * reads, status streams and namespace watches all take them from here.
 */
@Component
public class SerializedJobs {

    // Enough for every job of a busy service's pages and streams; beyond it, they are written again.
    private static final int CAPACITY = 20_000;

    private final JsonCache<JobKey, io.paddlejobs.job.JobStatus> statuses;
    private final JsonCache<JobKey, JobSummary> summaries;

    SerializedJobs(JsonMapper json) {
        this.statuses = new JsonCache<>(json, CAPACITY);
        this.summaries = new JsonCache<>(json, CAPACITY);
    }

    public String status(Job job) {
        return statuses.json(job.key(), job.status());
    }

    public String summary(JobSummary summary) {
        return summaries.json(new JobKey(summary.namespace(), summary.name()), summary);
    }
}
