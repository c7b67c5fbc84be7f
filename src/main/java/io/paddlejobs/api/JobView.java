package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** A job as the API shows it: where to watch it, what was planned, and how it stands. */
public record JobView(String name, String namespace, String statusUrl, List<String> warnings, JobPlan plan, JobStatus status,
                      @Schema(description = "The secret that signs this job's webhooks (notify), whsec_ and base64: in the"
                              + " answer of the submit that created the job only, never again; absent when its namespace's"
                              + " secret signs them (docs/webhooks.md)")
                      String webhookSecret) {

    /** Tells a submit's 200 answers apart: the job already there, not a dry run's {@code DryRun}. */
    @JsonProperty("kind")
    String kind() {
        return "Job";
    }

    static JobView of(Job job, StatusUrls urls) {
        JobPlan plan = job.plan();
        return new JobView(plan.name(), plan.namespace(), urls.of(job.key()), plan.warnings(), plan, job.status(), null);
    }

    /** The created job's answer, with the secret it is shown once. */
    JobView withWebhookSecret(String secret) {
        return new JobView(name, namespace, statusUrl, warnings, plan, status, secret);
    }
}
