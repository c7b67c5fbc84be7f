package io.paddlejobs.api;

import io.paddlejobs.job.JobService;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * The HTTP answers to a submit: 201 with {@code Location} for a new job, 200 with the existing job
 * for an identical resubmit (warning when it has finished), 200 with the plan for a dry run; each
 * with its warnings as Kubernetes sends them.
 */
@Component
class SubmitAnswers {

    private final StatusUrls statusUrls;

    SubmitAnswers(StatusUrls statusUrls) {
        this.statusUrls = statusUrls;
    }

    /** @param webhookSecret the created job's own webhook secret, shown in this answer only; {@code null}: none */
    ResponseEntity<JobView> submitted(JobService.Submission submission, String webhookSecret) {
        JobView view = JobView.of(submission.job(), statusUrls);
        if (submission.created() && webhookSecret != null) {
            view = view.withWebhookSecret(webhookSecret);
        }
        if (!submission.created() && submission.job().status().phase().isFinished()) {
            view = FinishedResubmit.warn(view, submission.job());
        }
        HttpHeaders headers = warnings(view.warnings());
        if (!submission.created()) {
            return ResponseEntity.ok().headers(headers).body(view);
        }
        URI location = URI.create(view.statusUrl().replace("/status?", "?"));
        return ResponseEntity.created(location).headers(headers).body(view);
    }

    ResponseEntity<DryRunView> planned(JobService.DryRun dryRun) {
        return ResponseEntity.ok().headers(warnings(dryRun.plan().warnings())).body(DryRunView.of(dryRun));
    }

    /** Warnings as Kubernetes sends them: {@code Warning: 299 - "text"}, one header each. */
    private static HttpHeaders warnings(List<String> warnings) {
        HttpHeaders headers = new HttpHeaders();
        warnings.forEach(w -> headers.add(HttpHeaders.WARNING, "299 - \"" + w.replace("\"", "'") + "\""));
        return headers;
    }
}
