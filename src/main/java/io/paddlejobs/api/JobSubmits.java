package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.JobService.Submission;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.security.SubmissionRateLimit;
import io.paddlejobs.security.Tenant;
import io.paddlejobs.webhooks.Webhooks;
import org.springframework.stereotype.Component;

/**
 * The one path a job is submitted by, for {@code POST /jobs}, a run again and a sweep's trials alike: the
 * caller's submissions per minute, the job's webhooks, and the namespace's quota.
 */
@Component
class JobSubmits {

    private final JobService jobs;
    private final SubmissionRateLimit rate;
    private final Webhooks webhooks;

    JobSubmits(JobService jobs, SubmissionRateLimit rate, Webhooks webhooks) {
        this.jobs = jobs;
        this.rate = rate;
        this.webhooks = webhooks;
    }

    /** A submit's outcome, with the created job's webhook secret to show once. */
    record Submitted(Submission submission, String webhookSecret) {
    }

    /**
     * The caller's rate is spent only when a job was created; the job service admits it against their quota.
     * The job's webhook outbox is there before the job is, and goes again when none was created.
     */
    Submitted submit(JobRequest request, String namespace, Tenant tenant, String statusUrl) {
        try (var permit = rate.take(tenant)) {
            JobKey key = new JobKey(namespace, request.name());
            Webhooks.Registration webhook = webhooks.register(key, request, statusUrl);
            Submission submission;
            try {
                submission = jobs.submit(request, namespace, tenant.quota());
            } catch (RuntimeException e) {
                webhook.abandon().run();
                throw e;
            }
            if (submission.created()) {
                permit.spend();
            } else {
                webhook.abandon().run();
            }
            return new Submitted(submission, webhook.secret());
        }
    }
}
