package io.paddlejobs.webhooks;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** A job's webhook deliveries, for whoever may read the job. */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class DeliveriesController {

    private final JobService jobs;
    private final Webhooks webhooks;

    DeliveriesController(JobService jobs, Webhooks webhooks) {
        this.jobs = jobs;
        this.webhooks = webhooks;
    }

    @Operation(summary = "A job's webhook deliveries: each event for each webhook, its attempts and their answers",
            description = "Oldest first; pending ones say when they are tried next. A job without webhooks has none.")
    @GetMapping(path = "/{name}/deliveries", produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveriesView deliveries(@PathVariable String name, @InNamespace(Action.READ) String namespace) {
        JobKey key = new JobKey(namespace, name);
        jobs.get(key); // a 404 for a job that is not there, as every job endpoint answers
        return DeliveriesView.of(webhooks.deliveries(key));
    }
}
