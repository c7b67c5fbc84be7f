package io.paddlejobs.metrics;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Min;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What a job's trainers reported with {@code PADDLEJOBS_METRICS} lines, under the same access rules as the job.
 * The feature's own controller, as webhooks' is; its error answers are described with every operation's.
 */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class MetricsController {

    private final JobService jobs;
    private final MetricsCollector metrics;
    private final NamespaceAccess access;

    MetricsController(JobService jobs, MetricsCollector metrics, NamespaceAccess access) {
        this.jobs = jobs;
        this.metrics = metrics;
        this.access = access;
    }

    @Operation(summary = "What a job's trainers reported", description = """
            Each trainer reports by printing one line: PADDLEJOBS_METRICS {"step": 3, "loss": 0.35}. \
            Points are kept per metric and trainer, at most paddlejobs.metrics.points-per-series (1000); \
            beyond it older points are thinned, the last is always kept. \
            since: the cursor of an earlier answer, to get only what was added after it.""")
    @ApiResponse(responseCode = "200", description = "The points, per metric name and replica",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = MetricsView.class)))
    @GetMapping(path = "/{name}/metrics", produces = MediaType.APPLICATION_JSON_VALUE)
    MetricsView metrics(@PathVariable String name,
                        @InNamespace(Action.READ) String namespace,
                        @Parameter(description = "The cursor of an earlier answer; 0 for everything kept")
                        @RequestParam(defaultValue = "0") @Min(0) long since) {
        Job job = jobs.get(new JobKey(namespace, name));
        return MetricsView.of(job.plan().name(), job.plan().namespace(), metrics.read(job, since));
    }
}
