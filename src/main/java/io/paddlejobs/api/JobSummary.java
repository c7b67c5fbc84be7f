package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.Progress;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

/** One line of a job list. */
public record JobSummary(String name, String namespace, JobPhase phase, String reason, Instant createdAt, Instant finishedAt,
                  int pservers, int trainers, Map<String, String> labels, String statusUrl, Progress progress) {

    static JobSummary of(Job job, StatusUrls urls) {
        return of(job, urls::of);
    }

    public static JobSummary of(Job job, Function<JobKey, String> statusUrls) {
        var plan = job.plan();
        var status = job.status();
        return new JobSummary(plan.name(), plan.namespace(), status.phase(), status.reason(), status.createdAt(),
                status.finishedAt(), plan.pservers().count(), plan.trainers().count(), plan.spec().placement().labels(),
                statusUrls.apply(job.key()), status.progress());
    }
}
